"""Hello proves the identity key: a signature over this connection's challenge, by a valid key."""

from __future__ import annotations

import hashlib

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.pubkey import add_points, decode_point, encode_point
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Outgoing, Phase
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import PROTOCOL_VERSION, ErrorCode
from tests.table.helpers import challenge, counter_entropy, proven_hello, say_hello, setup

TWO = TableOptions.make(players=2, hands_to_win=1)
BASE = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
NEUTRAL = bytes.fromhex("01" + "00" * 31)
ORDER8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")


def _refused(out: list[Outgoing], code: str) -> m.Error:
    """The host's answer is one Error of ``code`` that closes the connection."""
    assert len(out) == 1 and out[0].close, out
    err = out[0].message
    assert isinstance(err, m.Error) and err.code == code, err
    return err


def _lobby_with_victim() -> tuple[HostTable, Identity]:
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)))
    victim = Identity.generate(b"\x01" * 32)
    assert isinstance(say_hello(host, 1, victim, "Vera")[0].message, m.Welcome)
    host.receive(1, m.TakeSeat(0))
    return host, victim


def test_a_stranger_with_someone_elses_public_key_cannot_join_as_them() -> None:
    host, victim = _lobby_with_victim()
    thief = Identity.generate(b"\x02" * 32)
    ch = challenge(host, 2)
    # The victim's public key, signed with the thief's own key: refused, and closed.
    err = _refused(
        host.receive(2, proven_hello(thief, ch, "Vera", key=victim.public_key)),
        ErrorCode.BAD_PROOF,
    )
    assert "proof" in err.text
    assert _refused(
        host.receive(2, m.Hello(PROTOCOL_VERSION, "Vera", victim.public_key)),
        ErrorCode.BAD_PROOF,  # no proof at all
    ).text.startswith("hello has no proof")
    # The connection never got past hello: it cannot take the free seat with that key.
    assert host.receive(2, m.TakeSeat(1))[0].message.code == ErrorCode.HELLO_FIRST  # type: ignore[union-attr]
    assert not host.seats[1].occupied and host.seats[0].conn == 1
    assert [s.key for s in host.seats if s.occupied] == [victim.public_key]


def test_a_stolen_resume_token_and_public_key_do_not_resume_the_seat() -> None:
    host, clients, wire = setup(TWO, "steal")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.PLAY
    victim = clients[1]
    token = host.seats[1].token
    assert token is not None and victim.state.resume_token == token
    thief = Identity.generate(b"\x03" * 32)
    ch = challenge(host, 7)
    out = host.receive(7, proven_hello(thief, ch, "x", token, key=victim.identity.public_key))
    _refused(out, ErrorCode.BAD_PROOF)
    # The victim keeps its seat and its connection: nobody was told it resumed elsewhere.
    assert host.seats[1].conn == 1 and host.conns[1].seat == 1 and host.conns[7].seat is None
    assert not any(isinstance(msg, m.Error) for msg in wire.received[1])


def test_a_proof_is_bound_to_its_connections_nonce() -> None:
    host, _victim = _lobby_with_victim()
    player = Identity.generate(b"\x04" * 32)
    first, second = challenge(host, 2), challenge(host, 3)
    assert first.nonce != second.nonce and first.host_key == host.identity.public_key
    # A proof made for connection 2's challenge does not work on connection 3 ...
    _refused(host.receive(3, proven_hello(player, first, "P")), ErrorCode.BAD_PROOF)
    # ... nor on a later connection with the same id, which gets a new nonce.
    again = challenge(host, 2)
    assert again.nonce != first.nonce
    _refused(host.receive(2, proven_hello(player, first, "P")), ErrorCode.BAD_PROOF)
    assert isinstance(host.receive(2, proven_hello(player, again, "P"))[0].message, m.Welcome)


def test_a_proof_is_bound_to_the_tls_certificate_and_the_host_key() -> None:
    host, _victim = _lobby_with_victim()
    player = Identity.generate(b"\x05" * 32)
    cert = hashlib.sha256(b"this table's certificate").digest()
    relay = hashlib.sha256(b"a relaying neighbour's certificate").digest()
    ch = challenge(host, 4, cert)
    # Signed for the certificate a relay showed the player: useless at the real table.
    _refused(host.receive(4, proven_hello(player, ch, "P", channel=relay)), ErrorCode.BAD_PROOF)
    ch = challenge(host, 5, cert)
    other_host = m.Challenge(ch.nonce, Identity.generate(b"\x06" * 32).public_key)
    _refused(
        host.receive(5, proven_hello(player, other_host, "P", channel=cert)), ErrorCode.BAD_PROOF
    )
    ch = challenge(host, 6, cert)
    out = host.receive(6, proven_hello(player, ch, "P", channel=cert))
    assert isinstance(out[0].message, m.Welcome)


def _mixed_order_key() -> bytes:
    key = Identity.generate(b"\x07" * 32).public_key
    return encode_point(*add_points(decode_point(key), decode_point(ORDER8)))


@pytest.mark.parametrize(
    ("key", "why"),
    [
        pytest.param(NEUTRAL, "small order", id="neutral"),
        pytest.param(bytes(32), "small order", id="order-4"),
        pytest.param(ORDER8, "small order", id="order-8"),
        pytest.param(_mixed_order_key(), "mixed-order", id="mixed-order"),
        pytest.param(bytes.fromhex("ed" + "ff" * 30 + "7f"), "canonical", id="y-is-p"),
        pytest.param(bytes.fromhex("01" + "00" * 30 + "80"), "canonical", id="negative-zero"),
        pytest.param((2).to_bytes(32, "little"), "not a point", id="off-the-curve"),
        pytest.param(b"\x01" * 31, "32 bytes", id="short"),
    ],
)
def test_an_invalid_point_is_refused(key: bytes, why: str) -> None:
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)))
    ch = challenge(host, 1)
    signer = Identity.generate(b"\x08" * 32)
    try:
        hello = proven_hello(signer, ch, "z", key=key)
    except ValueError:  # no proof can be built over a key of the wrong length
        hello = m.Hello(PROTOCOL_VERSION, "z", key, None, bytes(64))
    err = _refused(host.receive(1, hello), ErrorCode.BAD_KEY)
    assert why in err.text
    assert not host.conns[1].hello


def test_the_neutral_point_whose_every_signature_verifies_is_refused() -> None:
    """For the neutral point A, (R = s*B, s) verifies for ANY message in OpenSSL: with such a
    key a hello "proves" anything, so the key itself must be refused."""
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)))
    challenge(host, 1)
    universal = BASE + (1).to_bytes(32, "little")  # R = 1*B, s = 1
    out = host.receive(1, m.Hello(PROTOCOL_VERSION, "zero", NEUTRAL, None, universal))
    _refused(out, ErrorCode.BAD_KEY)
    assert not host.conns[1].hello and not any(s.occupied for s in host.seats)


def test_the_session_answers_the_challenge_with_a_proof() -> None:
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)))
    session = ClientSession(Identity.generate(b"\x09" * 32), "Sam", entropy=counter_entropy())
    cert = hashlib.sha256(b"cert").digest()
    session.bind_channel(cert)
    assert session.hello() == []  # asked before the challenge came: sent as its answer
    (first,) = host.connect(1, cert)
    (hello,) = session.receive(first.message)
    assert isinstance(hello, m.Hello) and hello.proof is not None
    out = host.receive(1, hello)
    assert isinstance(out[0].message, m.Welcome)
    session.receive(out[0].message)
    # A new connection (after the old one was lost) signs its own challenge, not the old one.
    session.connection_lost()
    host.disconnect(1)
    (second,) = host.connect(2, cert)
    assert session.receive(second.message) == []  # nobody asked for a hello yet
    (hello2,) = session.hello()
    assert hello2.proof != hello.proof
    assert isinstance(host.receive(2, hello2)[0].message, m.Welcome)


def test_after_a_bad_token_one_more_hello_then_the_connection_closes() -> None:
    """Each proven hello costs the host a key check and a signature check: a connection may
    retry once after ``bad_token`` (as a new player, same nonce), not forever."""
    host, _victim = _lobby_with_victim()
    ch = challenge(host, 2)
    first = host.receive(2, proven_hello(Identity.generate(b"\x0a" * 32), ch, "a", "no-such"))
    assert first[0].message.code == ErrorCode.BAD_TOKEN and not first[0].close  # type: ignore[union-attr]
    again = host.receive(2, proven_hello(Identity.generate(b"\x0b" * 32), ch, "b", "no-such"))
    _refused(again, ErrorCode.BAD_TOKEN)
    ch = challenge(host, 3)
    host.receive(3, proven_hello(Identity.generate(b"\x0c" * 32), ch, "c", "no-such"))
    out = host.receive(3, proven_hello(Identity.generate(b"\x0c" * 32), ch, "c"))  # no token
    assert isinstance(out[0].message, m.Welcome)
