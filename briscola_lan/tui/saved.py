"""Saved games: where transcripts are kept, listing them, and verifying one as ``verify`` does."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The client's data directory: ``$XDG_DATA_HOME/briscola-lan`` (``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "briscola-lan"


def games_dir() -> Path:
    """Where hosts and clients save game transcripts."""
    override = os.environ.get("BRISCOLA_LAN_GAMES")
    return Path(override) if override else data_dir() / "games"


def list_saved(directory: Path | None = None) -> list[Path]:
    """Saved transcripts, newest first."""
    d = directory or games_dir()
    if not d.is_dir():
        return []
    files = [p for p in d.iterdir() if p.is_file() and not p.name.startswith(".")]
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def verify_saved(path: Path) -> tuple[bool, list[str]]:
    """Check a saved game with the offline verifier; returns (ok, report lines)."""
    try:
        from briscola_lan.fairness import verify as fverify  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return False, [
            "The offline verifier (briscola_lan.fairness) is not installed in this build."
        ]
    check = getattr(fverify, "verify_file", None)
    if check is None:
        return False, ["The offline verifier has no verify_file() entry point."]
    try:
        report = check(path)
    except Exception as exc:  # the verifier's own errors are the report
        return False, [f"{type(exc).__name__}: {exc}"]
    ok = bool(getattr(report, "ok", False))
    lines_attr = getattr(report, "lines", None)
    lines = list(lines_attr()) if callable(lines_attr) else [str(report)]
    return ok, lines
