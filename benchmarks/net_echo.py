"""A plain TLS echo server (one process) for the network benchmark's baseline round trip.

Run as ``python benchmarks/net_echo.py CONFIG_DIR [asyncio|tlsio]``: prints ``PORT`` then echoes
every chunk until stdin closes. ``asyncio`` serves through asyncio's TLS streams, ``tlsio``
(the default) through the same TLS stream the game's host uses (``briscola_lan.net.tlsio``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from briscola_lan.net import tls, tlsio


async def main(directory: Path, kind: str) -> None:
    cert = tls.load_or_create_certificate(directory)
    ctx = tls.server_context(cert)
    port: int
    closer: asyncio.AbstractServer | tlsio.Listener
    if kind == "asyncio":

        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while data := await reader.read(65536):
                writer.write(data)
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=ctx)
        port, closer = server.sockets[0].getsockname()[1], server
    else:

        async def echo_tls(stream: tlsio.TLSStream) -> None:
            while data := await stream.read():
                stream.write(data)
            stream.close()

        listener = await tlsio.listen(["127.0.0.1"], 0, ctx, echo_tls, handshake_timeout=10)
        port, closer = listener.sockets[0].getsockname()[1], listener
    print(port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    closer.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("config", type=Path, help="where its certificate is kept")
    parser.add_argument("kind", nargs="?", choices=("asyncio", "tlsio"), default="tlsio")
    args = parser.parse_args()
    asyncio.run(main(args.config, args.kind))
