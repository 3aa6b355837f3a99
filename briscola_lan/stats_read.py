"""Reading a player's statistics from the saved games: every file checked by the verifier, one
file per match (the one that verifies best), the player found by identity key or by name.

The one reader behind ``briscola-lan stats`` (``commands/stats.py``) and the client's statistics
screen; ``stats.py`` does the counting, pure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from briscola_lan.stats import MatchLine


@dataclass(slots=True)
class Collected:
    """What the games directory gave: the player's matches, and the files left out."""

    lines: list[MatchLine]
    files: int  # saved-game files read
    failed: int  # files with a failed check (or unreadable): left out
    others: int  # files of matches the player did not play in


def my_keys(config: Path | None = None) -> list[bytes]:
    """This user's identity public key, when there is one (never created here)."""
    from briscola_lan.fairness.identity import KEY_FILE, Identity, IdentityError
    from briscola_lan.net.files import config_dir

    path = (config or config_dir()) / KEY_FILE
    try:
        return [Identity(path.read_bytes()).public_key]
    except (OSError, IdentityError):
        return []


def collect(
    directory: Path,
    me: list[bytes],
    name: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> Collected:
    """Verify every saved game in ``directory`` and keep the player's matches, one per game."""
    from briscola_lan.fairness.statements import MatchStart, StatementError, decode
    from briscola_lan.fairness.transcript import SUFFIX, TranscriptFileError, load
    from briscola_lan.fairness.verify import verify_records
    from briscola_lan.stats import match_line, pick_files

    paths = (
        sorted(p for p in directory.glob(f"*{SUFFIX}") if p.is_file()) if directory.is_dir() else []
    )
    failed = others = 0
    found: list[tuple[str, str, int, object]] = []
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i, len(paths))
        try:
            records = load(path)
            when = path.stat().st_mtime
        except (TranscriptFileError, OSError):
            failed += 1
            continue
        report = verify_records(records)
        start = None
        for body, _sig in records:
            try:
                st = decode(body)
            except StatementError:
                break
            if isinstance(st, MatchStart):
                start = st
                break
        line = None if start is None else match_line(report, start, me, when, name)
        if report.verdict == "failed":
            failed += 1
        elif line is None:
            others += 1
        else:
            verified = sum(1 for h in report.hands if h.status == "verified")
            found.append((report.game_id, report.verdict, verified, line))
    if progress is not None:
        progress(len(paths), len(paths))
    lines = [x for x in pick_files(found) if isinstance(x, MatchLine)]
    return Collected(lines, len(paths), failed, others)
