"""A relay between the browser and the site that puts a mobile network in between: every chunk of every
connection (page loads, REST calls and each frame of the live connection) waits its delay each way, with
jitter, in order; connections can be dropped. The e2e site is always reached through it, so the site's
own address (SITE_URL) is the relay's; at rest it forwards at once.

    relay.slow(150, jitter_ms=60)        # about 150 ms each way, like a phone on a mobile network
    relay.drop()                         # every open connection is cut; chunks in flight are lost
    relay.drop_when_site_sends(b"...")   # the site's next answer holding these bytes is lost with its
                                         # connection: the site acted, the browser never heard
    relay.offline_when_browser_sends(b"...")  # offline as the browser sends these bytes: every connection
    relay.online()                       # is cut and new ones refused, until online again
    relay.wait_idle()                    # until nothing has moved for a while (late answers arrived)
    relay.stall_live()                   # the live connection stays open but nothing moves on it, as on a
    relay.resume_live()                  # train in a tunnel, until resumed
"""

import asyncio
import random
import threading
import time
from dataclasses import dataclass, field

CHUNK = 65536


@dataclass(eq=False)
class _Connection:
    writers: list[asyncio.StreamWriter] = field(default_factory=list)
    closed: bool = False
    live: bool = False

    def abort(self) -> None:
        self.closed = True
        for writer in self.writers:
            writer.transport.abort()


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.delay_ms = 0.0
        self.jitter_ms = 0.0
        self._drop_marker: bytes | None = None
        self._drop_from_site = True
        # Offline: every connection is cut and new ones are refused, as on a phone that lost its network.
        self._offline_on_drop = False
        self._offline = False
        self._dropped_on_marker = threading.Event()
        self._connections: set[_Connection] = set()
        self._last_activity = time.monotonic()
        self._loop = asyncio.new_event_loop()
        self._flowing = asyncio.Event()
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), daemon=True, name="slow-network")
        self._thread.start()
        started.wait()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def slow(self, delay_ms: float, jitter_ms: float = 0.0) -> None:
        self.delay_ms, self.jitter_ms = delay_ms, jitter_ms

    def fast(self) -> None:
        self.delay_ms = self.jitter_ms = 0.0
        self._drop_marker = None
        self._offline = False
        self.resume_live()

    def stall_live(self) -> None:
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def resume_live(self) -> None:
        self._loop.call_soon_threadsafe(self._flowing.set)

    def drop(self) -> None:
        self._call(self._drop_all)

    def drop_when_site_sends(self, marker: bytes) -> threading.Event:
        """Arms a drop for the site's next chunk holding `marker`; the event is set once it happened."""
        return self._drop_when(marker, from_site=True)

    def offline_when_browser_sends(self, marker: bytes) -> threading.Event:
        """Arms going offline at the browser's next chunk holding `marker`, before it reaches the site: every
        connection is cut and new ones are refused (a browser retries a request cut on a reused connection
        once) until `online()`."""
        self._offline_on_drop = True
        return self._drop_when(marker, from_site=False)

    def online(self) -> None:
        self._offline = False

    def _drop_when(self, marker: bytes, from_site: bool) -> threading.Event:
        self._dropped_on_marker.clear()
        self._drop_from_site = from_site
        self._drop_marker = marker
        return self._dropped_on_marker

    def wait_idle(self, quiet_s: float | None = None, limit_s: float = 20.0) -> None:
        """Waits until no chunk has moved for `quiet_s` (by default three delays): answers to what a test
        typed have all come back."""
        quiet = quiet_s if quiet_s is not None else max(0.3, 3 * (self.delay_ms + self.jitter_ms) / 1000)
        deadline = time.monotonic() + limit_s
        while time.monotonic() - self._last_activity < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the connection did not go quiet in {limit_s} s")
            time.sleep(0.05)

    def close(self) -> None:
        self._call(self._drop_all)
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _call(self, function) -> None:
        done = threading.Event()

        def run() -> None:
            function()
            done.set()

        self._loop.call_soon_threadsafe(run)
        done.wait(timeout=5)

    def _drop_all(self) -> None:
        for connection in list(self._connections):
            connection.abort()
        self._connections.clear()

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._flowing.set()
        self._server = self._loop.run_until_complete(asyncio.start_server(self._accept, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        started.set()
        self._loop.run_forever()

    async def _accept(
        self, browser_reader: asyncio.StreamReader, browser_writer: asyncio.StreamWriter
    ) -> None:
        if self._offline:
            browser_writer.transport.abort()
            return
        try:
            site_reader, site_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            browser_writer.transport.abort()
            return
        connection = _Connection([browser_writer, site_writer])
        self._connections.add(connection)
        await asyncio.gather(
            self._pipe(connection, browser_reader, site_writer, from_site=False),
            self._pipe(connection, site_reader, browser_writer, from_site=True),
        )
        self._connections.discard(connection)

    async def _pipe(
        self,
        connection: _Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        from_site: bool,
    ) -> None:
        """Reads chunks as they come and hands each on after its delay, never before the one before it."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.create_task(self._send(connection, queue, writer))
        last_due = 0.0
        try:
            while chunk := await reader.read(CHUNK):
                self._last_activity = time.monotonic()
                if not from_site and chunk.startswith(b"GET /_event"):
                    connection.live = True
                if self._drop_marker and from_site == self._drop_from_site and self._drop_marker in chunk:
                    self._drop_marker = None
                    if self._offline_on_drop:
                        self._offline_on_drop, self._offline = False, True
                        self._drop_all()
                    connection.abort()
                    self._dropped_on_marker.set()
                    break
                delay = self.delay_ms + random.uniform(-self.jitter_ms, self.jitter_ms)
                last_due = max(last_due, time.monotonic() + max(0.0, delay) / 1000)
                queue.put_nowait((last_due, chunk))
        except (ConnectionError, OSError):
            connection.abort()
        queue.put_nowait((last_due, b""))
        await sender

    async def _send(
        self, connection: _Connection, queue: asyncio.Queue[tuple[float, bytes]], writer: asyncio.StreamWriter
    ) -> None:
        while True:
            due, chunk = await queue.get()
            if (wait := due - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            if connection.live:
                await self._flowing.wait()
            if connection.closed:
                return
            self._last_activity = time.monotonic()
            if not chunk:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            try:
                writer.write(chunk)
                await writer.drain()
            except (ConnectionError, OSError):
                connection.abort()
                return
