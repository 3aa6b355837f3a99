"""The full-screen terminal client (prompt_toolkit): lobby, table, learn mode and saved games."""

from __future__ import annotations
