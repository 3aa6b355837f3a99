"""Briscola LAN: peer-to-peer Briscola for the local network, with a verifiable deal."""

from __future__ import annotations

__version__ = "0.1.0"
