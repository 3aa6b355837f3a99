"""Saved games: where transcripts are kept, listing them, and verifying one as ``verify`` does."""

from __future__ import annotations

from pathlib import Path

from briscola_lan.fairness.transcript import SUFFIX, TranscriptFileError, load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net.games import data_dir, games_dir

__all__ = ["data_dir", "games_dir", "list_saved", "verify_saved"]


def list_saved(directory: Path | None = None) -> list[Path]:
    """Saved transcripts (``*.briscola.json``), newest first."""
    d = directory or games_dir()
    if not d.is_dir():
        return []
    files = [p for p in d.glob(f"*{SUFFIX}") if p.is_file()]
    return sorted(files, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def verify_saved(path: Path) -> tuple[bool, str, list[str]]:
    """Check a saved game exactly as ``briscola-lan verify`` does: (verified, the verdict as
    ``verify`` prints it, the report lines)."""
    from briscola_lan.fairness.verify_cmd import VERDICT_WORDS, human_report

    try:
        report = verify_records(load(path))
    except TranscriptFileError as exc:
        return False, "CANNOT VERIFY", [f"cannot verify: {exc}"]
    lines = human_report(path.name, report).splitlines()
    return report.ok, VERDICT_WORDS[report.verdict], [line.strip() for line in lines[1:]]
