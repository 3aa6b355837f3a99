"""What a hosted table is made of, and the one way to make it: its ``TableSpec`` (name, rules,
AI players, port; kept beside its journal for ``host --resume``), its ``TableSettings`` (timers,
the AI players' pace, hints) and ``make_table``, for ``briscola-lan host`` and for a table a
client hosts itself alike."""

from __future__ import annotations

import getpass
import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola_lan.net import files
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import TableOptions


class HostError(Exception):
    """A hosting problem a user can fix (bad options, missing state, port in use)."""


def default_table_name() -> str:
    """``<user>@<hostname>``: unique enough that two hosts on a LAN do not share a name."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "player"
    host = socket.gethostname().split(".")[0] or "host"
    return f"{user}@{host}"[:40]


@dataclass
class TableSpec:
    """What is needed to build (or rebuild) one hosted table."""

    name: str
    options: TableOptions
    ai_seats: dict[int, str]
    port: int
    draw_partners: bool = False
    draw_dealer: bool = False
    deal: str | None = None  # "blind" or "classic"; None: the table's default


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How a hosted table runs: given again at each start (a resumed table takes the new ones),
    never saved with its spec."""

    grace: float = 30.0  # seconds a dropped player has to come back
    timeout: float = 60.0  # seconds for each commitment, reveal and acknowledgement
    call_wait: float = 10.0  # blind deal: seconds the people have to answer a hand's call
    play_timeout: float = 120.0  # seconds for each card when two or more people play
    ai_delay: float = 0.0  # the AI players' pace (seconds after the last card played)
    hints: bool = False  # the players may ask their client's AI for hints


def make_table(
    spec: TableSpec,
    identity: Any,
    restored: Any = None,
    settings: TableSettings = TableSettings(),
) -> Any:
    """A fresh HostTable, or the one ``restored`` from its journal, with the timers given now."""
    from briscola_lan.table.host import HostTable

    if restored is not None:
        table = restored
        table.grace, table.timeout = settings.grace, settings.timeout
        table.ai_delay = settings.ai_delay
        table.call_wait, table.play_timeout = settings.call_wait, settings.play_timeout
        return table
    try:
        return HostTable(
            spec.options,
            name=spec.name,
            identity=identity,
            ai_seats=spec.ai_seats,
            draw_partners=spec.draw_partners,
            draw_dealer=spec.draw_dealer,
            grace=settings.grace,
            timeout=settings.timeout,
            call_wait=settings.call_wait,
            play_timeout=settings.play_timeout,
            deal=spec.deal,
            ai_delay=settings.ai_delay,
            hints=settings.hints,
        )
    except ValueError as exc:  # e.g. an unknown AI level in a hand-edited saved table
        raise HostError(f"cannot make table {spec.name!r}: {exc}") from exc


def save_spec(path: Path, spec: TableSpec) -> None:
    """Keep ``spec`` at ``path`` (``table.json`` beside the table's journal), private."""
    data = {
        "name": spec.name,
        "options": spec.options.to_dict(),
        "ai_seats": {str(k): v for k, v in spec.ai_seats.items()},
        "port": spec.port,
        "draw_partners": spec.draw_partners,
        "draw_dealer": spec.draw_dealer,
        "deal": spec.deal,
    }
    files.write_private(path, json.dumps(data, indent=1).encode("utf-8"))


def load_spec(path: Path) -> TableSpec:
    """The spec kept at ``path`` by ``save_spec``; a ``HostError`` if it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TableSpec(
            name=str(data["name"]),
            options=TableOptions.from_dict(data["options"]),
            ai_seats={int(k): str(v) for k, v in data["ai_seats"].items()},
            port=int(data["port"]),
            draw_partners=bool(data.get("draw_partners", False)),
            draw_dealer=bool(data.get("draw_dealer", False)),
            deal=data.get("deal"),
        )
    except (OSError, ValueError, KeyError, TypeError, OptionsError) as exc:
        raise HostError(f"cannot resume from {path}: {exc}") from exc


def saved_specs(state_dir: Path) -> list[Path]:
    """The specs of the tables kept in ``state_dir`` (``table.json``, ``table000.json``...)."""
    return sorted(state_dir.glob("table*.json"))
