"""A judging that takes a minute, for the review worker's tests (importable by the worker)."""

from __future__ import annotations

import time
from typing import Any


def slow(view: Any, card: Any) -> int:
    time.sleep(60)
    return 0
