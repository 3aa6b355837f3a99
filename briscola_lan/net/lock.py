"""An exclusive lock on a file, held while this process runs and freed when it ends, on every OS.

``fcntl.flock`` where there is one (Linux, macOS, the BSDs); ``msvcrt.locking`` on Windows. Both
are freed by the system when the holder dies. Without either, an ``O_EXCL`` lock file that names
its holder's process id stands in, taken over once that process is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

PID_SUFFIX = ".pid"  # the O_EXCL stand-in: "lock.pid" holds its holder's process id


class FileLock:
    """A held lock; ``release`` frees it (closing the file descriptor, or removing the pid file)."""

    def __init__(self, fd: int, pid_file: Path | None = None) -> None:
        self.fd = fd
        self.pid_file = pid_file

    def release(self) -> None:
        if self.pid_file is not None:
            with contextlib.suppress(OSError):
                self.pid_file.unlink()
        os.close(self.fd)  # frees a flock or msvcrt lock with it


def try_lock(path: Path) -> FileLock | None:
    """Lock ``path`` (created empty, 0600) without waiting; None when another process holds it.

    OSError when the file cannot be opened or locked for another reason than being held.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                return None
            return FileLock(fd)
        if sys.platform == "win32":
            import msvcrt

            try:  # one byte at offset 0 (the file stays empty: Windows locks past the end too)
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            except OSError as exc:
                if exc.errno not in (errno.EACCES, errno.EDEADLOCK):
                    raise
                os.close(fd)  # locked by another process
                return None
            return FileLock(fd)
        pid_file = path.with_name(path.name + PID_SUFFIX)
        if not _claim_pid_file(pid_file):
            os.close(fd)
            return None
        return FileLock(fd, pid_file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise


def _claim_pid_file(pid_file: Path) -> bool:
    """Create ``pid_file`` with O_EXCL and this process id; take it over from a dead holder."""
    for _ in range(2):
        try:
            fd = os.open(pid_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if _holder_alive(pid_file):
                return False
            with contextlib.suppress(FileNotFoundError):
                pid_file.unlink()
            continue
        try:
            os.write(fd, str(os.getpid()).encode("ascii"))
        finally:
            os.close(fd)
        return True
    return False


def _holder_alive(pid_file: Path) -> bool:
    """Whether the process named in ``pid_file`` still runs (unknown or unreadable: assume so)."""
    try:
        pid = int(pid_file.read_text(encoding="ascii").strip() or "0")
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True
    if pid <= 0 or pid == os.getpid():  # being written, or ours
        return True
    if os.name != "posix":  # os.kill(pid, 0) would not only probe there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, another user's
        return True
    return True
