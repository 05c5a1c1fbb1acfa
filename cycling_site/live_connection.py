"""What the site adds to a page's live connection: a receipt for every action, an action sent again
answered as the first time and never run twice, and a reconnect that leaves the page as the rider had it.

Receipts. Reflex answers an event only with what it changed, and an event that changes nothing is not
answered at all, so a page cannot tell whether its action arrived, is running, or was lost with a dropped
connection. The page's watch (components/action_watch.jsx) numbers each event it sends; the site sends the
number back once the event's handler has finished (its changes are on the wire before the receipt).

Sent again. An event that comes again with a number already seen is not run again. A running one gets its
receipt when it ends. A finished one gets the page actions its first answer held (a redirect, a toast, a
script) and its receipt: the page sends an action again only when its receipt never came, and then the
answer before it was lost too. What the action changed in the state reaches the page with the reconnect's
hydration.

Reconnects. A page that reconnects is hydrated again, and Reflex runs the page's loads again: a form would
lose its messages, its step and its keys. When this process still holds the tab's page (the tab reconnects
to the page it last loaded here), only the first load runs again (the route guard and the header,
`PageState.load`); the page's own loads do not.

All of it is kept in this process (KEPT, KEPT_FOR_S). With several workers, a page that reconnects to
another worker is not known there: its loads run again and its actions may run again; the money actions
carry their own keys into the database, so they stay exactly-once even then.
"""

import asyncio
import contextvars
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import reflex as rx
from reflex.state import StateUpdate
from reflex_base.event.context import EventContext

RECEIPT = "receipt"
RECEIPT_MAX = 40
KEPT = 50_000
KEPT_FOR_S = 600
HYDRATE = ".hydrate_and_load"


@dataclass
class _Action:
    token: str
    receipt: str
    seen_at: float = field(default_factory=time.monotonic)
    done: bool = False
    # What the first answer asked the page to do (redirects, toasts, scripts).
    page_events: list = field(default_factory=list)
    # Some of them went while the tab had no connection.
    missed: bool = False


# (token, receipt) -> the action
_actions: OrderedDict[tuple[str, str], _Action] = OrderedDict()
# the handler's txid -> its action, while it runs
_running: dict[str, _Action] = {}
# token -> the path whose loads the tab last ran here
_page_of: OrderedDict[str, str] = OrderedDict()
# tokens whose page is being hydrated again after a reconnect
_reconnecting: set[str] = set()
# token -> actions that ended while the tab had no connection: their answer goes when it is back
_undelivered: OrderedDict[str, list[_Action]] = OrderedDict()
# The action whose event this connection's handler is enqueueing, taken by the first enqueue: tasks started
# meanwhile copy the context, and must not take it again.
_enqueueing: contextvars.ContextVar[list[_Action] | None] = contextvars.ContextVar("action", default=None)


def _keep(action: _Action) -> None:
    key = (action.token, action.receipt)
    _actions[key] = action
    _actions.move_to_end(key)
    too_old = time.monotonic() - KEPT_FOR_S
    while _actions and (len(_actions) > KEPT or next(iter(_actions.values())).seen_at < too_old):
        _actions.popitem(last=False)


def _bounded(mapping: OrderedDict) -> None:
    """At most KEPT entries: the oldest go first."""
    while len(mapping) > KEPT:
        mapping.popitem(last=False)


def _receipt_of(data: Any) -> str | None:
    receipt = data.get(RECEIPT) if isinstance(data, dict) else None
    return receipt if isinstance(receipt, str) and 0 < len(receipt) <= RECEIPT_MAX else None


def _is_reconnect(data: Any) -> bool:
    """A page's first connection hydrates with the hashes of the state it was built with; a reconnect
    hydrates without them."""
    if not isinstance(data, dict) or not str(data.get("name", "")).endswith(HYDRATE):
        return False
    payload = data.get("payload")
    return not (isinstance(payload, dict) and "hashes" in payload)


def _loads_for_tab(token: str, path: str, loads: list, in_hydrate_chain: bool) -> list:
    """`in_hydrate_chain`: asked by the load event a hydrate queued (not by the hydrate itself, nor by a
    navigation), which ends the reconnect."""
    if token in _reconnecting and _page_of.get(token) == path:
        if in_hydrate_chain:
            _reconnecting.discard(token)
        return loads[:1]
    _reconnecting.discard(token)
    _page_of[token] = path
    _page_of.move_to_end(token)
    _bounded(_page_of)
    return loads


def _current_context() -> EventContext | None:
    try:
        return EventContext.get()
    except LookupError:
        return None


def install(app: rx.App) -> None:
    """Wraps the live connection's event entry and its updates, the event queue and the page loads of a
    started app."""
    namespace = app.event_namespace
    processor = app.event_processor
    receive = namespace.on_event
    emit_update = namespace.emit_update
    enqueue = processor.enqueue
    load_events = app.get_load_events

    async def send_receipt(action: _Action) -> None:
        """To the page's connection as it is now: the page may have reconnected while the event ran. Page
        actions the tab missed go first; without a connection, all of it goes once the tab is back."""
        sid = namespace.token_to_sid.get(action.token)
        if sid is not None:
            if action.missed:
                action.missed = False
                await emit_update(StateUpdate(events=list(action.page_events)), action.token)
            await namespace.emit(RECEIPT, action.receipt, to=sid)
            return
        _undelivered.setdefault(action.token, []).append(action)
        _bounded(_undelivered)

    async def answer_again(action: _Action) -> None:
        """Its first answer was lost: the page actions it held go again, with the receipt."""
        action.missed = bool(action.page_events)
        await send_receipt(action)

    def finished(txid: str, action: _Action) -> None:
        _running.pop(txid, None)
        action.done = True
        asyncio.get_running_loop().create_task(send_receipt(action))

    async def on_event(sid: str, data: Any) -> None:
        receipt = _receipt_of(data)
        token = namespace.sid_to_token.get(sid)
        reconnect = token is not None and _is_reconnect(data)
        if reconnect:
            _reconnecting.add(token)
        if receipt is None or token is None:
            await receive(sid, data)
            for action in _undelivered.pop(token, []) if reconnect else []:
                await answer_again(action)
            return
        action = _actions.get((token, receipt))
        if action is not None:
            if action.done:
                await answer_again(action)
            return
        action = _Action(token, receipt)
        _keep(action)
        waiting = [action]
        current = _enqueueing.set(waiting)
        try:
            await receive(sid, data)
        finally:
            _enqueueing.reset(current)
            if waiting:
                finished("", action)

    async def enqueue_with_receipt(token: str, *args: Any, **kwargs: Any) -> Any:
        future = await enqueue(token, *args, **kwargs)
        waiting = _enqueueing.get()
        if waiting and waiting[0].token == token:
            action = waiting.pop()
            _running[future.txid] = action
            future.add_done_callback(lambda done: finished(done.txid, action))
        return future

    async def emit_recorded(update: StateUpdate, token: str) -> None:
        context = _current_context()
        action = _running.get(context.txid) if context is not None else None
        if action is not None and update.events:
            action.page_events.extend(update.events)
            action.missed = action.missed or namespace.token_to_sid.get(token) is None
        await emit_update(update, token)

    def page_loads(path: str) -> list:
        loads = load_events(path)
        context = _current_context()
        if context is None or not loads:
            return loads
        return _loads_for_tab(context.token, path, loads, context.parent_txid is not None)

    namespace.on_event = on_event
    namespace.emit_update = emit_recorded
    processor.enqueue = enqueue_with_receipt
    app.get_load_events = page_loads


@asynccontextmanager
async def serve(app: rx.App) -> AsyncIterator[None]:
    """A lifespan task: the event queue exists only once the app has started."""
    install(app)
    yield
