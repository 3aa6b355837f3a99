"""Run ``briscola-lan`` on a disk that stops answering, for the stop guard's tests:
``python -m tests.net.hung_disk FLAG -- PYTHON -m briscola_lan host ...`` (``procs.spawn``'s
``prefix``) runs the command in this process; once the file ``FLAG`` exists, every ``os.fsync``
of the process waits for ever (as on a network mount that went away)."""

from __future__ import annotations

import os
import sys
import threading


def main() -> int:
    flag, sep, *command = sys.argv[1:]
    assert sep == "--" and "briscola_lan" in command, sys.argv
    args = command[command.index("briscola_lan") + 1 :]
    real = os.fsync

    def fsync(fd: int) -> None:
        if os.path.exists(flag):
            threading.Event().wait()
        real(fd)

    os.fsync = fsync
    from briscola_lan.cli import main as cli

    return cli(args)


if __name__ == "__main__":
    raise SystemExit(main())
