"""Where a client keeps its seats' resume tokens and the seeds it has not revealed yet, per
table: a restarted client takes its seat back and can still reveal a seed it committed."""

from __future__ import annotations

import logging
import urllib.parse
from pathlib import Path
from typing import Any

from briscola_lan.net import files
from briscola_lan.net.tls import config_dir

log = logging.getLogger(__name__)


class ResumeStore:
    """Resume tokens per table in the config dir, so a restarted client takes its seat back.

    Tokens are bound to the player's identity by the host; one ``key token`` line per table.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = config_dir() / "resume_tokens" if path is None else path

    def _load(self) -> dict[str, str]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return {}
        out: dict[str, str] = {}
        for line in lines:
            parts = line.split()
            if len(parts) == 2:
                out[urllib.parse.unquote(parts[0])] = parts[1]
        return out

    def get(self, table: str) -> str | None:
        return self._load().get(table)

    def put(self, table: str, token: str | None) -> None:
        entries = self._load()
        if token is None:
            if entries.pop(table, None) is None:
                return
        else:
            entries[table] = token
        lines = [f"{urllib.parse.quote(k, safe='')} {v}\n" for k, v in sorted(entries.items())]
        text = "".join(lines)
        files.write_private(self.path, text.encode("utf-8"))

    def move(self, old: str, new: str) -> None:
        """The token and the saved seeds of the table keyed ``old`` are now ``new``'s (the same
        table, at another address); nothing moves where ``old`` has none."""
        if old == new:
            return
        token = self.get(old)
        if token is not None:
            self.put(new, token)
            self.put(old, None)
        blob = self.get_secrets(old)
        if blob is not None:
            self.put_secrets(new, blob)
            self._secrets_path(old).unlink(missing_ok=True)

    def _secrets_path(self, table: str) -> Path:
        return self.path.with_name("resume_secrets") / urllib.parse.quote(table, safe="")

    def get_secrets(self, table: str) -> bytes | None:
        """The seeds blob saved for ``table`` (``ClientSession.pending_secrets``), if any."""
        try:
            return self._secrets_path(table).read_bytes()
        except OSError:
            return None

    def put_secrets(self, table: str, blob: bytes) -> None:
        """Save the seeds committed to but maybe not revealed yet (private: mode 0600)."""
        path = self._secrets_path(table)
        files.private_dir(path.parent)
        files.write_private(path, blob)

    def attach_secrets(self, session: Any, table: str) -> None:
        """Give ``session`` the seeds saved for ``table`` and save each new one as it is drawn,
        so that a client restarted between commit and reveal can still reveal its seed."""
        blob = self.get_secrets(table)
        if blob:
            try:
                session.load_secrets(blob)
            except ValueError as exc:  # SecretsError: a damaged file; new seeds replace it
                log.warning("ignoring the saved seeds for %s: %s", table, exc)
        session.on_secrets = lambda data: self.put_secrets(table, data)


__all__ = ["ResumeStore"]
