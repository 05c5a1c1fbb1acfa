"""A browser tab's live connection to the site, spoken directly: the Socket.IO protocol the page uses.

Whatever the page's scripts could send, this sends too (any event, any payload, any client-storage value,
any cookie), as an attacker's own client would.
"""

import json
import threading
import time
import uuid
from dataclasses import dataclass, field

import httpx
import socketio

NAMESPACE = "/_event"
ROOT_STATE = "reflex___state____state"
# An update stream is over once the server has been quiet this long (bounded by UPDATE_LIMIT).
QUIET_SECONDS = 0.3
UPDATE_LIMIT_SECONDS = 15.0


def handler_name(state_full_name: str, handler: str) -> str:
    return f"{state_full_name}.{handler}"


HYDRATED = '"is_hydrated_rx_state_": true'


@dataclass
class LiveConnection:
    """One connection of one tab (its own client token), opened on `path` with `cookies`."""

    site_url: str
    cookies: dict[str, str]
    path: str
    query: dict[str, str]
    client_storage: dict[str, str]
    token: str = field(default_factory=lambda: str(uuid.uuid4()))
    updates: list[dict] = field(default_factory=list)
    _last_update: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._client = socketio.Client(reconnection=False)
        self._client.on("event", self._received, namespace=NAMESPACE)

    def _received(self, update) -> None:
        with self._lock:
            self.updates.append(update)
            self._last_update = time.monotonic()

    def _router_data(self) -> dict:
        query = "&".join(f"{name}={value}" for name, value in self.query.items())
        as_path = self.path + (f"?{query}" if query else "")
        return {"pathname": self.path, "asPath": as_path, "query": self.query}

    def _wait_until_quiet(self) -> None:
        deadline = time.monotonic() + UPDATE_LIMIT_SECONDS
        while time.monotonic() < deadline:
            with self._lock:
                quiet_for = time.monotonic() - self._last_update
            if quiet_for >= QUIET_SECONDS:
                return
            time.sleep(0.05)

    def open(self) -> None:
        """Connects, hydrates with the given client storage (as a page load does) and runs the page's
        on-load handlers, then waits for their updates: until the page says it is hydrated, which comes
        after every load's updates (a quiet moment alone is no proof under load), then until quiet."""
        hydrate = {
            "name": handler_name(ROOT_STATE, "hydrate_and_load"),
            "payload": {"vars": self.client_storage},
            "router_data": self._router_data(),
        }
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        # The websocket client sends the site's own Origin, as the page does.
        headers = {"Cookie": cookie} if cookie else {}
        self._last_update = time.monotonic()
        self._client.connect(
            f"{self.site_url}?token={self.token}",
            headers=headers,
            auth={"event": hydrate},
            transports=["websocket"],
            namespaces=[NAMESPACE],
            socketio_path=NAMESPACE,
            wait_timeout=10,
        )
        self.wait_for(HYDRATED)
        self._wait_until_quiet()

    def send(self, name: str, payload: dict, wait: bool = True) -> None:
        """Sends one event, then waits for every update it (and what it chains) brings. Without `wait`,
        the next event follows at once: the server handles a tab's events one after the other, in order."""
        self._last_update = time.monotonic()
        event = {"name": name, "payload": payload, "router_data": self._router_data()}
        self._client.emit("event", event, namespace=NAMESPACE)
        if wait:
            self._wait_until_quiet()

    def upload(self, name: str, args: dict, file_name: str, content: bytes) -> None:
        """An upload event, the way the page sends one: an HTTP POST naming the tab's client token."""
        response = httpx.post(
            f"{self.site_url}/_upload",
            headers={"Reflex-Client-Token": self.token, "Reflex-Event-Handler": name},
            data={"__reflex_event_args": json.dumps(args)} if args else None,
            files={"files": (file_name, content)},
            timeout=UPDATE_LIMIT_SECONDS,
        )
        for line in response.text.splitlines():
            if line.strip().startswith("{"):
                self._received(json.loads(line))
        self._wait_until_quiet()

    def close(self) -> None:
        self._client.disconnect()

    def wait_for(self, text: str) -> bool:
        """Waits (bounded by UPDATE_LIMIT) until an update holding `text` has come: every update sent before
        it has come too, the connection keeps their order."""
        deadline = time.monotonic() + UPDATE_LIMIT_SECONDS
        while time.monotonic() < deadline:
            if text in self.everything_received():
                return True
            time.sleep(0.05)
        return False

    def forget_received(self) -> None:
        """What arrived so far no longer counts (it was shown to someone allowed to see it)."""
        with self._lock:
            self.updates.clear()

    def everything_received(self) -> str:
        with self._lock:
            return json.dumps(self.updates)
