"""``briscola-lan --help`` imports no command's module: no prompt_toolkit, zeroconf or TLS."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_lan import cli

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("prompt_toolkit", "zeroconf", "cryptography", "msgpack", "nacl")
COMMAND_MODULES = {module for module, _ in cli.COMMANDS.values()}


# The command as ``python -m briscola_lan`` runs it, then the modules it left in sys.modules.
# (``-X importtime`` does not see ``importlib.import_module``, which the command uses.)
PROBE = """
import contextlib, io, json, runpy, sys
sys.argv = ["briscola-lan", *sys.argv[1:]]
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
    runpy.run_module("briscola_lan", run_name="__main__")
print(json.dumps([out.getvalue(), sorted(sys.modules)]))
"""


def _imported(*argv: str) -> tuple[str, set[str]]:
    """Run ``python -m briscola_lan ARGV`` in a child: its output and every module it imported."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out, names = json.loads(proc.stdout)
    return out, set(names)


def test_top_level_help_imports_no_command_module() -> None:
    out, names = _imported("--help")
    assert "With no COMMAND" in out and "--ai-level" in out  # the default's options are shown
    for name in sorted(names):
        assert name.split(".")[0] not in HEAVY, f"--help imported {name}"
        assert not name.startswith(("briscola_lan.net", "briscola_lan.tui")), name
        assert not name.startswith(("briscola_lan.ai", "briscola_lan.fairness")), name
    assert COMMAND_MODULES & names == {"briscola_lan.commands.play"}  # argparse only


def test_a_command_help_imports_that_command_only() -> None:
    out, names = _imported("tables", "--help")
    assert "--json" in out and "--timeout" in out
    assert COMMAND_MODULES & names == {"briscola_lan.net.tables_cmd", "briscola_lan.commands.play"}
    assert not {n for n in names if n.startswith(("prompt_toolkit", "briscola_lan.tui"))}


def test_version_names_the_program_and_the_protocols_it_speaks() -> None:
    """``--version``: what a user quotes in a bug report, and what two players compare when
    their clients cannot talk (the wire and fairness protocols), at the cost of ``--help``."""
    from briscola_lan import __version__, about
    from briscola_lan.fairness import transcript
    from briscola_lan.wire import messages

    out, names = _imported("--version")
    assert out == (
        f"briscola-lan {__version__} (wire protocol {messages.PROTOCOL_VERSION}, "
        f"fairness protocol and saved games {transcript.VERSION})\n"
    )
    for name in sorted(names):
        assert name.split(".")[0] not in HEAVY, f"--version imported {name}"
    assert not COMMAND_MODULES & names
    # The version it claims is the one the normative spec defines (its hashes' domain, §2).
    spec = (ROOT / "protocol" / "fairness.md").read_text(encoding="utf-8")
    assert f'"briscola-lan/v{about.FAIRNESS_VERSION}/' in spec


def test_the_installed_version_is_the_packages() -> None:
    """pyproject.toml takes its version from ``briscola_lan.__version__``: one place."""
    from importlib import metadata

    from briscola_lan import __version__

    assert metadata.version("briscola-lan") == __version__


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_command_keeps_its_options_in_its_help(command: str) -> None:
    parser = cli.build_parser(command)
    sub = next(a for a in parser._actions if a.dest == "command")
    options = sub.choices[command]._actions  # type: ignore[index]
    assert len(options) > 1, f"{command} --help lists no options"


def test_the_play_options_defaults_are_the_clients_and_the_hosts() -> None:
    from briscola_lan.choices import AI_PACE
    from briscola_lan.commands import play
    from briscola_lan.net import host_cmd
    from briscola_lan.tui import follow, i18n
    from briscola_lan.tui.deck import Deck

    assert play.TRICK_PAUSE == follow.TRICK_PAUSE
    assert tuple(d.value for d in Deck) == play.DECKS
    assert play.LANGUAGES == i18n.LANGUAGES
    parser = argparse.ArgumentParser()
    host_cmd.configure(parser)
    assert parser.parse_args([]).ai_delay == AI_PACE


LOBBY_PROBE = """
import json, sys
from briscola_lan.commands import play
from briscola_lan.tui.app import ClientApp
from briscola_lan.tui.command import build_config
parser = __import__("argparse").ArgumentParser()
play.configure(parser)
ClientApp(build_config(parser.parse_args(["--lang", "en"])))
print(json.dumps(sorted(sys.modules)))
"""


def test_the_lobby_loads_no_network_client_until_a_table_is_joined_or_hosted() -> None:
    """The lobby's first frame needs none of the network: discovery starts right after it; TLS,
    the wire, the table session and the fairness protocol load on the first join, host or
    practice game; the verifier with the saved games' screen."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), BRISCOLA_LAN_INTERFACES="127.0.0.1")
    proc = subprocess.run(
        [sys.executable, "-c", LOBBY_PROBE], capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    names = set(json.loads(proc.stdout))
    assert "briscola_lan.tui.lobby_net" in names
    # Discovery starts after the lobby's first frame; the coach and its AI with the first
    # table or hint, learn mode's pages when opened.
    late = ("net.discovery", "tui.coach", "ai", "tui.learn", "tui.eventlog", "tui.backend")
    late += ("rules.hand", "rules.match", "rules.events")  # the lobby needs cards and options
    # the table screen's rendering, with the first table shown
    late += ("tui.render_table", "tui.render_signals", "tui.seating", "tui.render_result")
    late += ("tui.chiamata", "tui.render_chiamata")
    for heavy in ("tui.netplay", "net.client", "table.client", "fairness", "wire", "tui.saved"):
        assert f"briscola_lan.{heavy}" not in names, heavy
    for module in late:
        assert f"briscola_lan.{module}" not in names, module
    assert "zeroconf" not in names
