"""Files on disk: the one writer of every file briscola-lan creates, private to this user.

Every file the host, the clients, the bots and the terminal client write (table specs, identity
and TLS keys, the certificate, known tables, resume tokens and seeds, saved games) goes through
``write_private``: a temporary file in the same folder, created with ``O_CREAT|O_EXCL`` and mode
0600 (so it is never readable by others, not even for a moment: nothing is chmod-ed after
writing), written, fsync-ed, then renamed over the old file, so a kill or a full disk at any
moment leaves the old file or the new one, never a part.

Folders: every folder briscola-lan creates is made mode 0700, each missing level of it. A folder
that already exists is tightened to 0700 when it is briscola-lan's own (its config, data, state
folders and what is under them) or the host's ``--state-dir`` (it holds the live deck): see
``private_dir``. The tables' journals (``net/journal.py``) are append-only files, created 0600
and then appended to. A ``--games DIR`` that exists is left as it is; the files in it are
0600.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from briscola_lan.fairness.identity import Identity

FILE_MODE = 0o600
DIR_MODE = 0o700


def config_dir() -> Path:
    """The config directory: ``$XDG_CONFIG_HOME/briscola-lan`` (``~/.config/briscola-lan``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "briscola-lan"


def data_dir() -> Path:
    """The data directory: ``$XDG_DATA_HOME/briscola-lan`` (``~/.local/share/briscola-lan``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "briscola-lan"


def state_dir() -> Path:
    """The state directory: ``$XDG_STATE_HOME/briscola-lan`` (``~/.local/state/briscola-lan``),
    where the tables' journals live."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "briscola-lan"


def games_dir() -> Path:
    """Where hosts and clients save game transcripts."""
    override = os.environ.get("BRISCOLA_LAN_GAMES")
    return Path(override) if override else data_dir() / "games"


def own_levels(directory: Path) -> list[Path]:
    """The folders from briscola-lan's own config, data or state folder down to ``directory``
    (empty when ``directory`` is elsewhere, e.g. a ``--games DIR`` the user chose)."""
    target = Path(os.path.abspath(directory))
    roots = (config_dir(), data_dir(), state_dir())
    for root in (Path(os.path.abspath(r)) for r in roots):
        if target == root or root in target.parents:
            levels = [target]
            while levels[-1] != root:
                levels.append(levels[-1].parent)
            return levels[::-1]
    return []


def _tighten(directory: Path) -> None:
    st = os.stat(directory)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(directory))
    getuid = getattr(os, "getuid", None)  # None on Windows: no POSIX modes, the profile is private
    if getuid is not None and st.st_mode & 0o077 and st.st_uid == getuid():
        os.chmod(directory, stat.S_IMODE(st.st_mode) & DIR_MODE)


def private_dir(directory: Path, *, tighten: bool | None = None) -> Path:
    """Create ``directory`` and its missing parents with mode 0700.

    Existing folders that group or others may use (and that this user owns) are set to 0700:
    ``directory`` itself with ``tighten=True``; with the default (None) every level of it that
    is briscola-lan's own (``own_levels``); with ``tighten=False`` none."""
    missing: list[Path] = []
    d = Path(os.path.abspath(directory))
    while not d.exists():  # a dangling symlink does not "exist": mkdir then says why
        missing.append(d)
        if d.parent == d:
            break
        d = d.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made meanwhile by another process
            os.mkdir(d, DIR_MODE)  # the umask can only take bits away
    made = set(missing)
    if tighten is None:
        levels = own_levels(directory)
    else:
        levels = [Path(os.path.abspath(directory))] if tighten else []
    for level in levels:
        if level not in made:
            _tighten(level)
    return directory


def write_private(path: Path, data: bytes, *, replace: bool = True) -> None:
    """Write ``data`` to ``path`` (mode 0600) atomically: a new temporary file in the same folder,
    fsync-ed, then renamed over ``path``. With ``replace=False`` an existing ``path`` is kept and
    ``FileExistsError`` raised (two processes creating one key: the first one wins).

    Missing folders are created mode 0700. Raises ``OSError`` (a full disk, a read-only file
    system...) and then leaves ``path`` as it was and no temporary file behind."""
    folder = path.parent
    tmp = folder / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, FILE_MODE)
    except FileNotFoundError:
        private_dir(folder)
        fd = os.open(tmp, flags, FILE_MODE)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path exists: create-once, atomically
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def check_writable(directory: Path, *, tighten: bool | None = None) -> None:
    """Create ``directory`` (0700) if needed and prove a file can be written there; OSError
    (with its errno: ENOSPC, EROFS, EACCES...) when not."""
    private_dir(directory, tighten=tighten)
    probe = directory / f".write-test-{os.getpid()}"
    write_private(probe, b"\0" * 512)  # a few bytes: a full disk refuses them
    probe.unlink()


def describe_os_error(exc: OSError) -> str:
    """A short reason a person can act on: 'disk full', 'read-only file system', ..."""
    reasons = {
        errno.ENOSPC: "disk full",
        errno.EDQUOT: "disk quota exceeded",
        errno.EROFS: "read-only file system",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EIO: "input/output error",
    }
    return reasons.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()


def load_or_create_identity(directory: Path | None = None) -> Identity:
    """This user's identity key (``identity.key`` in the config dir), created on first use."""
    from briscola_lan.fairness.identity import KEY_FILE, Identity, IdentityError

    directory = config_dir() if directory is None else directory
    path = directory / KEY_FILE
    try:
        private_dir(directory)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            ident = Identity.generate()
            try:
                write_private(path, ident.private_bytes(), replace=False)
                return ident
            except FileExistsError:  # another process made it first: use that one
                data = path.read_bytes()
    except OSError as exc:
        raise IdentityError(
            f"cannot read or create the identity key {path}: {describe_os_error(exc)}"
        ) from exc
    if len(data) != 32:
        raise IdentityError(
            f"{path} is not a briscola-lan identity (expected 32 bytes, found {len(data)}); "
            "move it away to create a new identity"
        )
    return Identity(data)
