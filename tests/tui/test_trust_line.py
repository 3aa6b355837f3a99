"""The table's trust line: what the host's computer can see, per deal and table make-up
(docs/fairness.md, "What the host learns"), the seats it plays marked in the players box, and
the warning before the 4-player exchange when the host plays my partner."""

from __future__ import annotations

from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.tui import render_table
from briscola_lan.tui.state import SeatInfo, TableModel, UiState


def _model(
    players: int, deal: str, host_plays: tuple[int, ...], ai: tuple[int, ...] = (), stock: int = 20
) -> TableModel:
    names = ["Ann", "Bea", "Cid", "Dan"]
    model = TableModel()
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    model.options = TableOptions.make(players=players, match_format=fmt)
    model.seats = [
        SeatInfo(s, names[s], is_ai=s in ai, level="AI:rules" if s in ai else "")
        for s in range(players)
    ]
    model.my_seat, model.seated, model.started, model.known = 0, True, True, True
    model.deal, model.host_plays, model.stock_left = deal, host_plays, stock
    return model


def _texts(model: TableModel, compact: bool = False) -> list[str]:
    return [text for _, text in render_table.trust_lines(model, compact=compact)]


def _players_box(model: TableModel) -> str:
    return "".join(text for _, text in render_table.seat_lines(model, UiState(), width=40))


def test_the_classic_deal_says_the_host_knows_every_card() -> None:
    assert _texts(_model(2, "classic", ())) == [
        "Classic deal: the host's computer knows every card."
    ]


def test_a_blind_table_of_people_says_nobody_sees_a_card_unshown() -> None:
    assert _texts(_model(3, "blind", ())) == [
        "Blind deal: no one, the host included, sees a card unshown."
    ]


def test_a_blind_table_with_ai_players_says_the_host_sees_theirs_only() -> None:
    model = _model(4, "blind", (1, 3), ai=(1, 3))
    assert _texts(model)[0] == "Blind deal: the host sees the AI players' cards only."
    assert "host plays" not in _players_box(model)  # an AI seat is marked as AI already


def test_a_person_the_host_plays_is_named_and_marked() -> None:
    model = _model(3, "blind", (2,))
    assert _texts(model) == ["Blind deal: the host plays Cid this hand and sees those cards."]
    box = _players_box(model)
    cid = next(line for line in box.split("\n") if "Cid" in line)
    assert "host plays" in cid
    assert all("host plays" not in line for line in box.split("\n") if "Cid" not in line)


def test_before_the_exchange_i_am_warned_when_the_host_plays_my_partner() -> None:
    warning = "The host plays your partner: it sees the cards you show."
    assert warning in _texts(_model(4, "blind", (2,)))  # my partner, a person left out
    assert warning in _texts(_model(4, "blind", (1, 2, 3), ai=(1, 2, 3)))  # an AI partner
    assert warning in _texts(_model(4, "blind", (2,)), compact=True)  # a small screen too
    assert warning not in _texts(_model(4, "blind", (1, 3), ai=(1, 3)))  # my partner is Cid
    assert warning not in _texts(_model(4, "blind", (2,), stock=0))  # the exchange is over
    no_exchange = _model(4, "blind", (2,))
    no_exchange.options = TableOptions.make(players=4, partner_exchange=False)
    assert warning not in _texts(no_exchange)


def test_a_small_screen_drops_the_line_and_a_practice_game_has_none() -> None:
    assert _texts(_model(2, "blind", ()), compact=True) == []
    practice = _model(2, "", (1,), ai=(1,))  # on this machine alone: nobody else to trust
    assert _texts(practice) == []


def test_the_line_is_on_the_table() -> None:
    model = _model(2, "blind", ())
    table = "".join(text for _, text in render_table.table_lines(model, UiState(), width=60))
    assert "Blind deal: no one, the host included, sees a card unshown." in " ".join(table.split())


def test_a_seat_the_host_plays_while_its_player_is_away_fits_the_players_box() -> None:
    model = _model(4, "blind", (1, 2, 3), ai=(1, 3))
    model.seats[2].connected = False
    model.hand_sizes, model.to_play, model.dealer = (3, 2, 3, 3), 0, 0
    box = "".join(text for _, text in render_table.seat_lines(model, UiState(), width=30))
    rows = box.split("\n")[:4]  # the seats (an 80x24 screen's players box is 30 wide)
    assert all(len(row) <= 30 for row in rows), rows
    bea = next(row for row in rows if "Cid" in row)
    assert "host plays" in bea and "away" not in bea  # the host plays it: that says it all
