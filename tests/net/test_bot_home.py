"""Where ``bot`` keeps each bot's identity and resume state: one home per name, never the
player's, and a separate one for a second bot of the same name running at the same time."""

from __future__ import annotations

from pathlib import Path

from briscola_lan.net.bot_cmd import claim_bot_home
from briscola_lan.net.files import load_or_create_identity as load_or_create


def test_a_restarted_bot_gets_its_home_and_key_back(tmp_path: Path) -> None:
    with claim_bot_home("B", tmp_path) as home:
        key = load_or_create(home).public_key
    with claim_bot_home("B", tmp_path) as again:
        assert again == home
        assert load_or_create(again).public_key == key
    assert load_or_create(tmp_path).public_key != key  # the player's own key is another
    with claim_bot_home("C", tmp_path) as other:
        assert load_or_create(other).public_key != key


def test_two_bots_of_one_name_running_at_once_get_two_homes(tmp_path: Path) -> None:
    with claim_bot_home("bot-rules", tmp_path) as first:
        with claim_bot_home("bot-rules", tmp_path) as second:
            assert second != first
            assert load_or_create(second).public_key != load_or_create(first).public_key
        with claim_bot_home("bot-rules", tmp_path) as third:
            assert third == second  # freed when the second bot ended
    with claim_bot_home("bot-rules", tmp_path) as after:
        assert after == first


def test_a_bot_name_cannot_leave_the_bots_directory(tmp_path: Path) -> None:
    for name in ("..", ".", "../../x", "a/b", "x" * 300):
        with claim_bot_home(name, tmp_path) as home:
            assert home.parent == tmp_path / "bots"
            assert home.name not in (".", "..")
