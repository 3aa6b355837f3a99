"""A plain TLS echo server (one process) for the network benchmark's baseline round trip.

Run as ``python benchmarks/net_echo.py CONFIG_DIR``: prints ``PORT`` then echoes every chunk.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from briscola_lan.net import tls


async def main(directory: Path) -> None:
    cert = tls.load_or_create_certificate(directory)

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=tls.server_context(cert))
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
