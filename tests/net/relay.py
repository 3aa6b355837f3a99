"""A TCP relay for tests: sits between a client and the host and can cut chosen connections."""

from __future__ import annotations

import asyncio
import contextlib


class Relay:
    """A TCP relay in front of the host that can close connections before the host's welcome.

    A closed connection gets through the TLS handshake (the client has sent its Finished and
    holds a working TLS stream), then ends before any message of the host reaches the client.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.drop = 0  # how many of the next connections to close before the welcome
        self.refuse = 0  # how many of the next connections to close at once, before TLS
        self.dropped = 0
        self.accepted = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _relay(self, cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
        self.accepted += 1
        if self.refuse > 0:  # as a host does past its rate limit: closed before the handshake
            self.refuse -= 1
            cw.close()
            return
        drop = self.drop > 0
        self.drop -= drop
        try:
            hr, hw = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:  # the host is gone (or between two hosts): the line ends, as a host's
            cw.close()  # closed port would end it; nothing escapes into the test's event loop
            return
        host_spoke = asyncio.Event()

        async def pump(r: asyncio.StreamReader, w: asyncio.StreamWriter, up: bool) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await r.read(65536):
                    if up and drop and host_spoke.is_set():
                        # The client's second flight (its Finished, maybe its hello): the
                        # handshake is over on its side; end the line before any welcome.
                        self.dropped += 1
                        break
                    if not up:
                        host_spoke.set()
                    w.write(data)
                    await w.drain()
            for writer in (cw, hw):
                writer.close()

        tasks = [asyncio.create_task(pump(cr, hw, True)), asyncio.create_task(pump(hr, cw, False))]
        for task in tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            await asyncio.gather(*tasks)
        finally:
            for writer in (cw, hw):
                writer.close()
                with contextlib.suppress(ConnectionError):
                    await writer.wait_closed()
