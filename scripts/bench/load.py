"""Load harness: riders signed in through the site's REST sign-in, their dashboards loaded over the live
connection exactly as a browser tab does it (Engine.IO/Socket.IO on /_event: connect with the hydrate
event, then the page's on-load events), in bursts and held with think time.

    .venv/bin/python scripts/bench/load.py --burst 50 --hold 200
    .venv/bin/python scripts/bench/load.py --workers 4 --redis --burst 100 --hold 1000
    .venv/bin/python scripts/bench/load.py --url http://127.0.0.1:3000 --burst 10   # a site already running

Without --url it starts a site of its own (scripts/bench/site_runner.py: a fresh seeded database, built
frontend, `--redis` with a throwaway Redis server as ./scripts/with-redis starts one). Every rider signs
in as the demo rider (three months of rides); riders share --sessions sign-ins in turn, each rider a tab
of its own (its own client token and connection). A dashboard load counts from
opening the connection until the Overview tab's header, overall curve and progress are all in (the ride
list waits for its own tab);
a held rider arrives within the first RAMP seconds (default THINK) and opens the dashboard again every THINK
seconds (randomised +-50 %) on the same connection.
Prints p50/p95/p99, errors (with their first messages), the bytes a load received, and the server's CPU
(user+system seconds across its processes) and RSS. Bounded: at most MAX_RIDERS riders, every wait
bounded, the hold phase lasts --duration seconds; only 127.0.0.1 is ever contacted.
"""

import argparse
import asyncio
import base64
import functools
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psutil
from altcha import solve_challenge_v1
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.utilities import LocalProtocolError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_runner import free_port, start_site  # noqa: E402

ROOT_DIR = Path(__file__).resolve().parents[2]
MAX_RIDERS = 2000
LOAD_TIMEOUT = 60.0
SIGN_IN_CONCURRENCY = 8
EMAIL, PASSWORD = "rider@example.com", "ridefast"
NAMESPACE = "/_event"
ROOT = "reflex___state____state"
DASHBOARD = f"{ROOT}.cycling_site___state___dashboard____dashboard_state"
# The header and curve load first, then the progress, shown busy while it loads: the Overview is complete.
DONE_FLAGS = ("progress_loading_rx_state_",)
PATH = "/user/activities"


class LoadError(Exception):
    pass


class Socket:
    """One websocket, spoken with wsproto over asyncio streams."""

    def __init__(self) -> None:
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.texts: asyncio.Queue[str] = asyncio.Queue()
        self.received = 0

    async def open(self, url: str, target: str, headers: list[tuple[str, str]]) -> None:
        parts = urlsplit(url)
        self.reader, self.writer = await asyncio.open_connection(parts.hostname, parts.port)
        self.writer.write(self.ws.send(Request(host=parts.netloc, target=target, extra_headers=headers)))
        await self.writer.drain()
        while True:
            data = await self.reader.read(65536)
            if not data:
                raise LoadError("the server closed the connection during the handshake")
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, AcceptConnection):
                    self.pump = asyncio.create_task(self._pump())
                    return
                if isinstance(event, RejectConnection):
                    raise LoadError(f"websocket refused: {event.status_code}")

    async def _pump(self) -> None:
        """Queues the text messages (the handshake's read may already hold the first ones)."""
        parts: list[str] = []
        try:
            while True:
                for event in self.ws.events():
                    if isinstance(event, TextMessage):
                        parts.append(event.data)
                        if event.message_finished:
                            self.texts.put_nowait("".join(parts))
                            parts = []
                    elif isinstance(event, Ping):
                        self.writer.write(self.ws.send(event.response()))
                    elif isinstance(event, CloseConnection):
                        if self.ws.state.name == "REMOTE_CLOSING":
                            self.writer.write(self.ws.send(event.response()))
                        self.texts.put_nowait("")
                        return
                data = await self.reader.read(65536)
                if not data:
                    break
                self.received += len(data)
                self.ws.receive_data(data)
        except (ConnectionError, OSError, LocalProtocolError):
            pass
        self.texts.put_nowait("")

    async def send(self, text: str) -> None:
        self.writer.write(self.ws.send(TextMessage(data=text)))
        await self.writer.drain()

    async def recv(self, timeout: float) -> str:
        text = await asyncio.wait_for(self.texts.get(), timeout)
        if not text:
            raise LoadError("the connection closed")
        return text

    async def close(self) -> None:
        """As a page does on leaving: a Socket.IO disconnect, a websocket close, then the TCP close."""
        try:
            await self.send(f"41{NAMESPACE},")
            self.writer.write(self.ws.send(CloseConnection(code=1000)))
            await self.writer.drain()
            await asyncio.wait_for(asyncio.shield(self.pump), 2)
        except (ConnectionError, OSError, TimeoutError, LocalProtocolError):
            pass
        self.pump.cancel()
        self.writer.close()


@dataclass
class Rider:
    """One tab of one signed-in rider: a client token and the session cookies."""

    url: str
    cookie: str
    token: str = field(default_factory=lambda: str(uuid.uuid4()))
    socket: Socket | None = None

    def _event(self, name: str, payload: dict | None = None) -> dict:
        router = {"pathname": PATH, "asPath": PATH, "query": {}}
        return {"name": name, "payload": payload or {}, "router_data": router}

    async def _until_loaded(self) -> None:
        """Reads updates (answering the server's pings) until the progress (loaded after the header) has
        started loading and finished."""
        started: set[str] = set()
        pending = set(DONE_FLAGS)
        deadline = time.monotonic() + LOAD_TIMEOUT
        while pending:
            text = await self.socket.recv(max(0.1, deadline - time.monotonic()))
            if text == "2":
                await self.socket.send("3")
                continue
            if not text.startswith(f"42{NAMESPACE},"):
                if text.startswith(f"44{NAMESPACE}"):
                    raise LoadError(f"connection refused: {text[:200]}")
                continue
            name, update = json.loads(text[len(NAMESPACE) + 3 :])
            if name != "event":
                continue
            for field_name, value in update.get("delta", {}).get(DASHBOARD, {}).items():
                if field_name in pending and value is True:
                    started.add(field_name)
                elif field_name in started and value is False:
                    pending.discard(field_name)
                if field_name == "profile_error_rx_state_" and value:
                    raise LoadError(f"dashboard: {value}")

    async def open_dashboard(self) -> int:
        """A page load: a new connection that hydrates and runs the dashboard's on-load events; answers
        the bytes received."""
        if self.socket is not None:
            await self.socket.close()
        self.socket = Socket()
        target = f"{NAMESPACE}/?EIO=4&transport=websocket&token={self.token}"
        headers = [("Origin", self.url), ("Cookie", self.cookie)]
        await self.socket.open(self.url, target, headers)
        opened = await self.socket.recv(LOAD_TIMEOUT)
        if not opened.startswith("0"):
            raise LoadError(f"unexpected Engine.IO open: {opened[:100]}")
        # A page's first connect: the browser holds the compiled defaults and sends their hashes, so the
        # server sends only what differs.
        hashes, schema = compiled_defaults()
        hydrate = self._event(f"{ROOT}.hydrate_and_load", {"vars": {}, "hashes": hashes})
        await self.socket.send(f"40{NAMESPACE}," + json.dumps({"event": hydrate, "state_schema": schema}))
        await self._until_loaded()
        return self.socket.received

    async def reopen_dashboard(self) -> int:
        """Back to the dashboard within the open page (client-side navigation): its on-load events."""
        while not self.socket.texts.empty():
            if not self.socket.texts.get_nowait():
                raise LoadError("the connection closed")
        before = self.socket.received
        name = f"{ROOT}.reflex___state____on_load_internal_state.on_load_internal"
        await self.socket.send(f"42{NAMESPACE}," + json.dumps(["event", self._event(name)]))
        await self._until_loaded()
        return self.socket.received - before

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


@functools.cache
def compiled_defaults() -> tuple[list[str], str]:
    """The hashes of the compiled state defaults and the state schema, as the built frontend sends them
    (read from this checkout's build: the site under load must be built from it)."""
    context = (ROOT_DIR / ".web" / "utils" / "context.jsx").read_text()
    hashes = json.loads(re.search(r"initialStateHashes = (\[[^\]]*\])", context)[1])
    found = re.search(r"stateSchema\W+([0-9a-f]{32})", context)
    return hashes, found[1] if found else ""


def human_check_token(challenge: dict) -> str:
    """The token of a solved human check (GET /api/altcha/challenge), as the sign-in widget sends it."""
    solution = solve_challenge_v1(
        challenge["challenge"], challenge["salt"], challenge["algorithm"], challenge["maxnumber"]
    )
    fields = ("algorithm", "challenge", "salt", "signature")
    payload = {**{name: challenge[name] for name in fields}, "number": solution.number}
    return base64.b64encode(json.dumps(payload).encode()).decode()


def sign_in(url: str) -> str:
    """POST /api/auth/login (with a solved human check); answers the session cookies' header value."""
    with httpx.Client(timeout=LOAD_TIMEOUT, headers={"Origin": url}) as client:
        token = human_check_token(client.get(f"{url}/api/altcha/challenge").json())
        body = {"email": EMAIL, "password": PASSWORD, "remember": True, "token": token}
        answer = client.post(f"{url}/api/auth/login", json=body)
        if answer.status_code != 200:
            raise LoadError(f"sign-in answered {answer.status_code}: {answer.text[:200]}")
        data = answer.json()["data"]
    return f"rider_token={data['token']}; rider_id={data['uuId']}"


@dataclass
class Tally:
    timings: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    async def measure(self, action: Callable) -> None:
        started = time.perf_counter()
        try:
            size = await action()
        except (LoadError, OSError, TimeoutError, ValueError) as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}"[:200])
            return
        self.timings.append((time.perf_counter() - started) * 1000)
        self.sizes.append(size)

    def report(self, title: str) -> dict:
        done = sorted(self.timings)

        def pct(share: float) -> float:
            return done[min(len(done) - 1, max(0, round(share * len(done)) - 1))] if done else float("nan")

        result = {
            "loads": len(done),
            "errors": len(self.errors),
            "p50_ms": round(pct(0.50), 1),
            "p95_ms": round(pct(0.95), 1),
            "p99_ms": round(pct(0.99), 1),
            "kb_per_load": round(statistics.median(self.sizes) / 1024, 1) if self.sizes else None,
        }
        print(f"{title}: {json.dumps(result)}")
        for message in sorted(set(self.errors))[:5]:
            print(f"  error x{self.errors.count(message)}: {message}")
        return result


class Server:
    """CPU seconds and RSS of the site's processes (the one listening and all its children)."""

    def __init__(self, url: str):
        port = urlsplit(url).port
        pids = [c.pid for c in psutil.net_connections("tcp") if c.status == "LISTEN" and c.laddr.port == port]
        if not pids or pids[0] is None:
            raise LoadError(f"no process of this user listens on port {port}")
        top = psutil.Process(pids[0])
        while top.parent() is not None and "reflex" in " ".join(top.parent().cmdline()):
            top = top.parent()
        self.top = top

    def _processes(self) -> list[psutil.Process]:
        return [self.top, *self.top.children(recursive=True)]

    def cpu_seconds(self) -> float:
        total = 0.0
        for process in self._processes():
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    def rss_mb(self) -> float:
        total = 0
        for process in self._processes():
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return round(total / 2**20, 1)


async def sign_in_all(url: str, count: int, sessions: int) -> list[Rider]:
    """`sessions` sign-ins; the riders (each a tab with its own client token) share them in turn, as tabs
    of one browser share its cookies. A sign-in costs the server a password hash."""
    limit = asyncio.Semaphore(SIGN_IN_CONCURRENCY)

    async def one() -> str:
        async with limit:
            return await asyncio.to_thread(sign_in, url)

    cookies = await asyncio.gather(*(one() for _ in range(min(count, sessions))))
    return [Rider(url, cookies[index % len(cookies)]) for index in range(count)]


async def burst(url: str, server: Server, riders: list[Rider]) -> dict:
    """All riders open the dashboard at the same moment, each on a new connection."""
    tally = Tally()
    cpu = server.cpu_seconds()
    await asyncio.gather(*(tally.measure(rider.open_dashboard) for rider in riders))
    result = tally.report(f"burst of {len(riders)} simultaneous dashboard loads")
    result["server_cpu_ms_per_load"] = round((server.cpu_seconds() - cpu) * 1000 / max(1, len(riders)), 1)
    print(f"  server CPU per load: {result['server_cpu_ms_per_load']} ms")
    return result


async def hold(server: Server, riders: list[Rider], think: float, duration: float, ramp: float) -> dict:
    """Every rider keeps the dashboard open and opens it again every `think` seconds (+-50 %)."""
    tally = Tally()
    start = time.monotonic()
    cpu, own = server.cpu_seconds(), time.process_time()
    # The riders arrive over the first `ramp` seconds, each with a dashboard of their own.
    arrivals = Tally()
    # The server's CPU and the held loads done once every rider has arrived: a held load's own cost, apart
    # from the arrivals' fresh pages.
    settled: list[tuple[float, int]] = []

    async def ride(rider: Rider, delay: float) -> None:
        await asyncio.sleep(delay)
        await arrivals.measure(rider.open_dashboard)
        if len(arrivals.timings) + len(arrivals.errors) == len(riders):
            settled.append((server.cpu_seconds(), len(tally.timings)))
        while time.monotonic() - start < duration:
            await asyncio.sleep(think * random.uniform(0.5, 1.5))
            if time.monotonic() - start >= duration:
                break
            if rider.socket is None:
                await tally.measure(rider.open_dashboard)
            else:
                await tally.measure(rider.reopen_dashboard)

    await asyncio.gather(*(ride(rider, random.uniform(0, ramp)) for rider in riders))
    elapsed = time.monotonic() - start
    arrivals.report(f"{len(riders)} riders arriving (a page load each)")
    result = tally.report(f"{len(riders)} riders held, one dashboard every ~{think:g} s, {elapsed:.0f} s")
    used = server.cpu_seconds() - cpu
    result["server_cpu_percent"] = round(100 * used / elapsed, 1)
    result["server_rss_mb"] = server.rss_mb()
    result["harness_cpu_percent"] = round(100 * (time.process_time() - own) / elapsed, 1)
    shares = (result["server_cpu_percent"], result["server_rss_mb"], result["harness_cpu_percent"])
    print("  server CPU {} % of one core, RSS {} MB (this harness: {} % of one core)".format(*shares))
    if settled and len(tally.timings) > settled[0][1]:
        held_cpu = (server.cpu_seconds() - settled[0][0]) * 1000 / (len(tally.timings) - settled[0][1])
        result["server_cpu_ms_per_held_load"] = round(held_cpu, 1)
        print(f"  server CPU per held load, once all riders arrived: {held_cpu:.1f} ms")
        # The same riders, apart from the arrivals' backlog: the loads that ended after the last arrival.
        steady = Tally(timings=tally.timings[settled[0][1] :], sizes=tally.sizes[settled[0][1] :])
        result["steady"] = steady.report("  held loads ended after every rider arrived")
    return result


async def event_list(url: str, server: Server, connections: int, duration: float, revalidate: bool) -> dict:
    """GET /api/events as a visitor from `connections` keep-alive connections for `duration` seconds; with
    `revalidate` each caller sends back the ETag it holds (If-None-Match), as a browser cache does."""
    tally = Tally()
    cpu = server.cpu_seconds()
    start = time.monotonic()

    async def caller() -> None:
        # Plain HTTP/1.1 on one keep-alive connection: httpx would spend more CPU than the server does.
        parts = urlsplit(url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        etag = ""
        try:
            while time.monotonic() - start < duration:
                began = time.perf_counter()
                condition = f"If-None-Match: {etag}\r\n" if etag else ""
                request = f"GET /api/events HTTP/1.1\r\nHost: {parts.netloc}\r\n{condition}\r\n"
                writer.write(request.encode())
                head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), LOAD_TIMEOUT)).decode("latin-1")
                status = int(head.split(" ", 2)[1])
                headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if ": " in line)
                headers = {name.lower(): value for name, value in headers.items()}
                body = await reader.readexactly(int(headers.get("content-length", 0)))
                if status not in (200, 304):
                    tally.errors.append(f"HTTP {status}")
                    continue
                tally.timings.append((time.perf_counter() - began) * 1000)
                tally.sizes.append(len(body))
                if revalidate:
                    etag = headers.get("etag", "")
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
            tally.errors.append(f"{type(exc).__name__}: {exc}"[:200])
        finally:
            writer.close()

    await asyncio.gather(*(caller() for _ in range(connections)))
    elapsed = time.monotonic() - start
    kind = "revalidating (If-None-Match)" if revalidate else "plain"
    result = tally.report(f"GET /api/events, {connections} connections, {kind}")
    result["requests_per_second"] = round(len(tally.timings) / elapsed)
    result["server_cpu_percent"] = round(100 * (server.cpu_seconds() - cpu) / elapsed, 1)
    rate, used = result["requests_per_second"], result["server_cpu_percent"]
    print(f"  {rate} requests/s, server CPU {used} % of one core")
    return result


async def run(url: str, args: argparse.Namespace) -> None:
    server = Server(url)
    if args.api:
        await event_list(url, server, args.api, min(args.duration, 60), revalidate=False)
        await event_list(url, server, args.api, min(args.duration, 60), revalidate=True)
    needed = min(MAX_RIDERS, max(args.burst, args.hold))
    started = time.monotonic()
    riders = await sign_in_all(url, needed, args.sessions)
    signed = min(needed, args.sessions)
    print(f"{signed} sessions signed in through POST /api/auth/login for {needed} riders (tabs) in ", end="")
    print(f"{time.monotonic() - started:.0f} s")
    print(f"server at rest: RSS {server.rss_mb()} MB")
    try:
        if args.burst:
            await burst(url, server, riders[: args.burst])
            await asyncio.gather(*(rider.close() for rider in riders[: args.burst]))
        if args.hold:
            await hold(server, riders[: args.hold], args.think, args.duration, args.ramp or args.think)
    finally:
        await asyncio.gather(*(rider.close() for rider in riders))


def _redis() -> tuple[str, Callable[[], None]]:
    """A throwaway Redis server on a free loopback port, as ./scripts/with-redis starts one."""
    if not shutil.which("redis-server"):
        raise SystemExit("Redis is not installed (./scripts/setup --test installs it).")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="cycling-redis-")
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            folder,
            "--daemonize",
            "yes",
            "--logfile",
            f"{folder}/redis.log",
        ],
        check=True,
    )

    def stop() -> None:
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)

    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    return f"redis://127.0.0.1:{port}/0", stop


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a running site on 127.0.0.1 (default: start one)")
    parser.add_argument("--burst", type=int, default=10, help="simultaneous dashboard loads (0: none)")
    parser.add_argument("--hold", type=int, default=0, help="riders held with think time (0: none)")
    parser.add_argument("--think", type=float, default=10.0, help="seconds between a held rider's loads")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds the hold phase lasts")
    parser.add_argument(
        "--ramp", type=float, default=0, help="seconds the held riders arrive over (0: --think)"
    )
    parser.add_argument("--sessions", type=int, default=100, help="sign-ins the riders share in turn")
    parser.add_argument("--api", type=int, default=0, help="connections loading GET /api/events (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="site workers (more than 1 needs --redis)")
    parser.add_argument("--redis", action="store_true", help="keep state in a throwaway Redis server")
    args = parser.parse_args()
    if max(args.burst, args.hold, args.api) > MAX_RIDERS or args.duration > 600:
        raise SystemExit(f"At most {MAX_RIDERS} riders and 600 s.")
    if not 0 <= args.ramp < args.duration:
        raise SystemExit("The riders arrive within the hold phase: --ramp below --duration.")
    if args.workers > 1 and not args.redis and not args.url:
        raise SystemExit("Several workers share state through Redis: add --redis.")
    if args.url:
        if urlsplit(args.url).hostname != "127.0.0.1":
            raise SystemExit("The harness only loads a site on 127.0.0.1.")
        asyncio.run(run(args.url.rstrip("/"), args))
        return
    stops: list[Callable[[], None]] = []
    env = {"ALTCHA_MAX_NUMBER": "100", "LOGIN_LIMIT_PER_ADDRESS": "100000/minute"}
    try:
        if args.redis:
            redis_url, stop_redis = _redis()
            stops.append(stop_redis)
            env |= {"REDIS_URL": redis_url, "GRANIAN_WORKERS": str(args.workers)}
        print("starting the site (migrate, seed, build)...", flush=True)
        url, stop_site = start_site(env)
        stops.append(stop_site)
        asyncio.run(run(url, args))
    finally:
        for stop in reversed(stops):
            stop()


if __name__ == "__main__":
    main()
