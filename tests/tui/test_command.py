"""The client's command line: `briscola-lan --help` says that no command opens the client."""

from __future__ import annotations

import pytest

from briscola_lan import cli
from briscola_lan.tui.command import default_name


def test_top_level_help_names_the_default_command_and_its_options() -> None:
    text = cli.build_parser().format_help()
    tail = text[text.index("With no COMMAND") :]
    assert "'play'" in tail and "full-screen client" in tail
    for option in ("--name NAME", "--ascii", "--interfaces", "--ai-level", "--games"):
        assert option in tail, option
    assert "$BRISCOLA_NAME, else $USER" in " ".join(tail.split())


def test_default_name_follows_the_documented_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "unix")
    monkeypatch.setenv("BRISCOLA_NAME", "Bea")
    assert default_name() == "Bea"
    monkeypatch.delenv("BRISCOLA_NAME")
    assert default_name() == "unix"


def test_hide_points_on_the_command_line_reaches_the_table() -> None:
    from briscola_lan.tui.app import ClientApp
    from briscola_lan.tui.command import build_config

    parser = cli.build_parser("play")
    args = parser.parse_args(["play", "--hide-points", "--name", "Tess"])
    config = build_config(args)
    assert config.hide_points
    app = ClientApp(config)
    assert app.ui.hide_points
    assert not build_config(parser.parse_args(["play", "--name", "Tess"])).hide_points
    join = cli.build_parser("join").parse_args(["join", "somewhere", "--hide-points"])
    assert join.hide_points
