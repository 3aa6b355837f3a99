"""Every network test must leave no task, thread or child process behind."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator, Iterator

import pytest


def _children() -> set[int]:
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            return {int(p) for p in f.read().split()}
    except OSError:
        return set()


@pytest.fixture(autouse=True)
def no_threads_or_processes_left() -> Iterator[None]:
    threads = set(threading.enumerate())
    children = _children()
    yield
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        extra_threads = [t for t in threading.enumerate() if t not in threads and t.is_alive()]
        extra_children = _children() - children
        if not extra_threads and not extra_children:
            return
        time.sleep(0.02)
    assert not extra_threads, f"threads left behind: {extra_threads}"
    assert not extra_children, f"processes left behind: {extra_children}"


@pytest.fixture(autouse=True)
async def no_tasks_left() -> AsyncIterator[None]:
    yield
    me = asyncio.current_task()
    for _ in range(50):
        left = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        if not left:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"tasks left behind: {left}")
