"""Entry point for ``python -m briscola_lan``."""

from __future__ import annotations

from briscola_lan.cli import main

raise SystemExit(main())
