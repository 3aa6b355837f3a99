"""The pure table: the host-side coordinator and the client session, both without I/O."""

from __future__ import annotations

from briscola_lan.table.client import ClientSession, ClientState, HandCheck
from briscola_lan.table.host import HostTable, Outgoing, Phase, SnapshotError, TableInfo

__all__ = [
    "ClientSession",
    "ClientState",
    "HandCheck",
    "HostTable",
    "Outgoing",
    "Phase",
    "SnapshotError",
    "TableInfo",
]
