"""The reference relay: the least a host that checks a signature per card can do.

Run as ``python benchmarks/ref_relay.py CONFIG_DIR [--verifier project|openssl|none]``: prints
``PORT``, then serves until stdin closes. Each connection first sends a ``hello`` (its public key
is kept; no proof, no table), then ``play_card`` frames. For each card the relay decodes the
frame (the project's codec), checks the one Ed25519 signature, encodes one ``card_played`` and
writes it to every connection: the project's own TLS transport (``net/tlsio.py``), one write per
frame, nothing else. A card with a bad signature is dropped.

``--verifier project`` checks with ``fairness.identity.verify_signature`` (whatever library the
project uses, its key check cached), ``openssl`` with ``cryptography`` directly (the relay the
latency target was first set against), ``none`` skips the check (the transport's share alone).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.net import tls, tlsio  # noqa: E402
from briscola_lan.wire import codec  # noqa: E402
from briscola_lan.wire.messages import CardPlayed, Hello, PlayCard  # noqa: E402

SALT = bytes(range(32))


def make_verifier(kind: str) -> Callable[[bytes, bytes, bytes], bool]:
    if kind == "project":
        from briscola_lan.fairness.identity import verify_signature

        return verify_signature
    if kind == "openssl":
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        keys: dict[bytes, Ed25519PublicKey] = {}

        def openssl(key: bytes, body: bytes, sig: bytes) -> bool:
            pk = keys.get(key)
            if pk is None:
                pk = keys[key] = Ed25519PublicKey.from_public_bytes(key)
            try:
                pk.verify(sig, body)
            except InvalidSignature:
                return False
            return True

        return openssl
    if kind == "none":
        return lambda key, body, sig: True
    raise SystemExit(f"unknown verifier {kind!r}")


async def main(directory: Path, verifier: str) -> None:
    cert = tls.load_or_create_certificate(directory)
    verify = make_verifier(verifier)
    streams: list[tlsio.TLSStream] = []

    async def serve(stream: tlsio.TLSStream) -> None:
        decoder = codec.FrameDecoder()
        key = b""
        streams.append(stream)
        try:
            while data := await stream.read():
                for msg in decoder.feed(data):
                    if type(msg) is PlayCard:
                        if verify(key, msg.body, msg.sig):
                            frame = codec.encode_frame(CardPlayed(msg.body, msg.sig, 0, SALT))
                            for s in streams:
                                s.write(frame)
                    elif type(msg) is Hello:
                        key = msg.public_key
        finally:
            streams.remove(stream)
            stream.close()

    listener = await tlsio.listen(
        ["127.0.0.1"], 0, tls.server_context(cert), serve, handshake_timeout=10
    )
    print(listener.sockets[0].getsockname()[1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    listener.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--verifier", default="project", choices=["project", "openssl", "none"])
    args = parser.parse_args()
    asyncio.run(main(args.directory, args.verifier))
