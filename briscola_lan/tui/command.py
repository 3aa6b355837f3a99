"""The full-screen client's start: on the lobby (``play``) or on one table (``join``).

The options are ``commands/play.py``'s and ``net/join_cmd.py``'s; this module turns them into the
app's configuration with the network parts plugged in.
"""

from __future__ import annotations

import argparse
import asyncio
import locale
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from briscola_lan.choices import AI_PACE

if TYPE_CHECKING:
    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.config import ClientConfig


def _utf8(value: str) -> bool:
    low = value.lower()
    return "utf-8" in low or "utf8" in low


def _locale_coerced(env: Mapping[str, str], utf8_mode: bool) -> bool:
    """Whether Python replaced a C/POSIX locale at startup (PEP 538 coercion, PEP 540 UTF-8 mode).

    Then ``LC_CTYPE`` in the environment says ``C.UTF-8`` although the user's locale was C: the
    UTF-8 mode came on by itself (neither ``PYTHONUTF8`` nor ``-X utf8`` asked for it).
    """
    asked = "PYTHONUTF8" in env or "utf8" in getattr(sys, "_xoptions", {})
    return utf8_mode and not asked and "LC_ALL" not in env


def wants_ascii(
    explicit: bool, environ: Mapping[str, str] | None = None, utf8_mode: bool | None = None
) -> bool:
    """ASCII mode when asked, when NO_COLOR is set, or when the locale is not UTF-8.

    The locale is read from LC_ALL, LC_CTYPE and LANG. When Python coerced a C locale at startup
    (``LANG=C``, ``LC_CTYPE=C``: it rewrites LC_CTYPE to C.UTF-8 and turns on its UTF-8 mode),
    the rewritten LC_CTYPE is ignored: only a LANG that names UTF-8 keeps the Unicode look (its
    locale is merely not installed here); otherwise the terminal is taken to be plain ASCII.
    """
    env = os.environ if environ is None else environ
    if explicit or "NO_COLOR" in env:
        return True
    mode = bool(sys.flags.utf8_mode) if utf8_mode is None else utf8_mode
    if _locale_coerced(env, mode):
        lang = env.get("LANG", "")
        return not _utf8(lang)
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return not _utf8(value)
    encoding = locale.getpreferredencoding(False) or ""
    return encoding.lower().replace("-", "") != "utf8"


def default_name() -> str:
    return os.environ.get("BRISCOLA_NAME") or os.environ.get("USER") or "Player"


def build_config(args: argparse.Namespace) -> ClientConfig:
    """The app's configuration from the command line, with the network parts plugged in."""
    from briscola_lan.tui import i18n
    from briscola_lan.tui.config import ClientConfig
    from briscola_lan.tui.deck import default_deck, parse_deck
    from briscola_lan.tui.follow import HandOrder

    lang = i18n.set_language(getattr(args, "lang", None))
    deck_name = getattr(args, "deck", None)
    interfaces = None
    if args.interfaces:
        interfaces = [p.strip() for item in args.interfaces for p in item.split(",") if p.strip()]
    config = ClientConfig(
        name=args.name or default_name(),
        ascii_only=wants_ascii(args.ascii),
        ai_level=args.ai_level,
        ai_delay=max(0.0, args.ai_delay),
        trick_pause=max(0.0, getattr(args, "trick_pause", 1.5)),
        deck=parse_deck(deck_name) if deck_name else default_deck(lang),
        hand_order=HandOrder(getattr(args, "hand_order", "sorted")),
        hide_points=bool(getattr(args, "hide_points", False)),
        bell=bool(getattr(args, "bell", True)),
        interfaces=interfaces,
        games=args.games,
    )
    from briscola_lan.tui import lobby_net  # the network client loads on the first join or host

    lobby_net.install(config)
    return config


def run(args: argparse.Namespace) -> int:
    from briscola_lan.tui.app import ClientApp
    from briscola_lan.tui.i18n import _, set_language

    if not sys.stdin.isatty() and "BRISCOLA_FORCE_TUI" not in os.environ:
        set_language(getattr(args, "lang", None))
        print(_("briscola-lan: the client needs a terminal (stdin is not a tty)"), file=sys.stderr)
        return 2
    app = ClientApp(build_config(args))
    return asyncio.run(app.run_async())


def run_join(args: argparse.Namespace) -> int:
    """``briscola-lan join`` on a terminal: the full-screen client, opened on that table."""
    from briscola_lan.tui.app import ClientApp
    from briscola_lan.tui.lobby_net import join_target_backend

    name = args.name if args.name and args.name != "player" else default_name()
    interfaces = list(args.interfaces) if args.interfaces else None
    config = build_config(
        argparse.Namespace(
            name=name, ascii=getattr(args, "ascii", False), interfaces=interfaces,
            ai_level="rules", ai_delay=AI_PACE, games=getattr(args, "games", None),
            lang=getattr(args, "lang", None), deck=getattr(args, "deck", None),
            trick_pause=getattr(args, "trick_pause", 1.5),
            hand_order=getattr(args, "hand_order", "sorted"),
            hide_points=getattr(args, "hide_points", False),
            bell=getattr(args, "bell", True),
        )
    )  # fmt: skip

    def initial(cfg: ClientConfig) -> TableBackend:
        return join_target_backend(
            args.table, cfg, fingerprint=args.fingerprint, seat=args.seat, timeout=args.timeout
        )

    config.initial_table = initial
    return asyncio.run(ClientApp(config).run_async())
