"""Who the rider is, decided on the server: the session cookies of this connection, verified on every use.

The browser holds the session in two HttpOnly cookies that only HTTP responses write
(api/browser_session.py). They reach this state in the live connection's handshake headers, which the
browser cannot change over the socket; client-storage vars never say who the rider is. Every state that
acts for the rider gets the account through `signed_in_account` or `rider_action` below.
"""

import functools
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

import reflex as rx
from sqlmodel import Session
from starlette.requests import cookie_parser

from cycling_site.db import get_session, off_loop
from cycling_site.models import Account
from cycling_site.routes import path_of, requires_login
from cycling_site.services import profile, tokens
from cycling_site.services.finance import OFFICERS
from cycling_site.services.race_control import REVIEWERS
from cycling_site.services.validation import FormErrors
from cycling_site.state.changes import put

T = TypeVar("T")

HOME_AFTER_LOGIN = "/user/activities#profile"
CHECK_INTERVAL_MS = 120_000
SESSION_ENDPOINT = "/api/auth/session"


def login_url(reason: str, redirect: str) -> str:
    return f"{path_of('login')}?{urlencode({'redirect': redirect, 'reason': reason})}"


def _post_form(action: str, fields: dict[str, str]) -> rx.event.EventSpec:
    """A full-page form POST: the answer sets or removes the HttpOnly cookies and redirects."""
    return rx.call_script(
        "(() => { const form = document.createElement('form'); form.method = 'post';"
        f" form.action = {json.dumps(action)};"
        f" for (const [name, value] of Object.entries({json.dumps(fields)})) {{"
        " const input = document.createElement('input'); input.type = 'hidden'; input.name = name;"
        " input.value = value; form.appendChild(input); }"
        " document.body.appendChild(form); form.submit(); })()"
    )


def start_session(handle: str) -> rx.event.EventSpec:
    """Posts a sign-in handle for the session cookies; the answer leads where the handle says."""
    return _post_form(SESSION_ENDPOINT, {"handle": handle})


def end_session(next_path: str) -> rx.event.EventSpec:
    """Signs out in the browser (token revoked, cookies removed), then opens `next_path`."""
    return _post_form(f"{SESSION_ENDPOINT}/end", {"next": next_path})


def clear_dead_cookies() -> rx.event.EventSpec:
    """Removes session cookies that no longer make a session, without leaving the page."""
    return rx.call_script(
        f"fetch('{SESSION_ENDPOINT}/clear', {{method: 'POST', credentials: 'same-origin'}})"
    )


class SessionState(rx.State):
    """The header's rider and the route guard; filled only from a verified session."""

    signed_in: bool = False
    firstname: str = ""
    lastname: str = ""
    avatar: str = ""
    is_kid: bool = False
    # Show the consoles' menu entries; each console checks the role itself on every event.
    is_reviewer: bool = False
    is_finance: bool = False

    @rx.var
    def initial(self) -> str:
        return (self.firstname[:1] or "?").upper()

    @rx.var
    def avatar_url(self) -> str:
        return profile.avatar_url(self.avatar)

    def _cookies(self) -> tuple[str, str]:
        """The session cookies this connection presented when it opened (server-side headers)."""
        cookies = cookie_parser(self.router.headers.cookie or "")
        return cookies.get(tokens.TOKEN_COOKIE, ""), cookies.get(tokens.USER_ID_COOKIE, "")

    def _verify(self, fresh: bool) -> tokens.SessionCheck:
        """Verifies this connection's session (signature, expiry, revocation, password change), reusing
        the connection's verdict of the last few seconds unless `fresh`; blocking, so it runs off the
        event loop. Both cookies are needed (spec 3)."""
        token, user_id = self._cookies()
        if not (token and user_id):
            return tokens.SessionCheck("missing")
        with get_session() as db:
            return tokens.recent_check(db, token, user_id, self.router.session.session_id, fresh)

    async def _check(self, fresh: bool = False) -> tokens.SessionCheck:
        """The session's verdict (a reused one without leaving the event loop); the header follows."""
        token, user_id = self._cookies()
        reused = None
        if token and user_id and not fresh:
            reused = tokens.reused_check(token, user_id, self.router.session.session_id)
        check = reused or await off_loop(self._verify, fresh)
        if check.account is None:
            self._forget()
        else:
            self._show(check.account)
        return check

    def _forget(self) -> None:
        put(
            self,
            signed_in=False,
            firstname="",
            lastname="",
            avatar="",
            is_kid=False,
            is_reviewer=False,
            is_finance=False,
        )

    def _show(self, account: Account) -> None:
        put(
            self,
            signed_in=True,
            firstname=account.firstname,
            lastname=account.lastname,
            avatar=account.avatar or "",
            is_kid=account.is_kid,
            is_reviewer=account.role in REVIEWERS,
            is_finance=account.role in OFFICERS,
        )

    def _changed(self, account: Account) -> None:
        """The rider changed their own details: the header follows, and no reused verdict shows the old."""
        tokens.forget_checks(account_uuid=account.uuid)
        self._show(account)

    def _current_path(self) -> str:
        """Path, query and hash (the tab of /user/activities#in-game-shop): where the rider comes back to."""
        url = self.router.url
        return (
            url.path + (f"?{url.query}" if url.query else "") + (f"#{url.fragment}" if url.fragment else "")
        )

    @rx.event
    async def guard(self):
        """On every page load: routes flagged authRequired need a valid session."""
        return self._guarded(await self._check())

    @rx.event
    async def recheck(self):
        """The session watch (focus, a visible tab, every two minutes): the guard on a fresh verdict."""
        return self._guarded(await self._check(fresh=True))

    def _guarded(self, check: tokens.SessionCheck):
        """Cookies that no longer make a session are removed (spec 1: storage and cookies are cleared)."""
        if check.status == "ok":
            return None
        events = [clear_dead_cookies()] if any(self._cookies()) else []
        if requires_login(self.router.url.path):
            reason = "session_expired" if check.status == "missing" else "token_expired"
            events.append(rx.redirect(login_url(reason, self._current_path()), replace=True))
        return events or None

    @rx.event
    def logout(self):
        self._forget()
        return end_session(path_of("login"))


def _attach(db: Session, account_id: int) -> Account | None:
    account = db.get(Account, account_id)
    # The connection goes back to the pool while the handler works or waits on other services.
    db.commit()
    return account


async def signed_in_account(state: rx.State, db: Session, reads_only: bool = False) -> Account | None:
    """The account of this connection's verified session, read in `db`; None for a visitor. Only work
    that `reads_only` takes the connection's verdict of the last few seconds; anything else checks afresh,
    so a revoked session never changes anything."""
    check = await (await state.get_state(SessionState))._check(fresh=not reads_only)
    if check.account is None:
        return None
    if reads_only:
        # The account as the session check read it, for whose data to read (its id and uuid): a second read
        # of the row per handler (a thread hop and a query) was a fair share of a dashboard load. What a page
        # shows of the account itself it reads afresh, as the dashboard's header does.
        return check.account
    return await off_loop(_attach, db, check.account.id)


@dataclass(frozen=True)
class Rider:
    """What a rider action works with: an open database session and the verified account (read in it; for
    `reads_only` work, as the session check read it in the last few seconds)."""

    db: Session
    account: Account

    async def off_loop(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`work(db, *args, **kwargs)` off the event loop; the connection then goes back to the pool, so a
        handler that goes on to wait for a service holds none (the service needs one of its own)."""

        def run() -> T:
            result = work(self.db, *args, **kwargs)
            self.db.commit()
            return result

        return await off_loop(run)


def rider_action(*, busy: str = "", errors: str = "", reads_only: bool = False) -> Callable:
    """Makes a handler act for the signed-in rider, always the same way.

    The handler gets a `Rider` as its first argument. `busy` names a flag shown while it runs (sent at
    once); without a verified session the handler does not run and the route guard takes over; `errors`
    names where form errors show (a dict of messages, or a str for the first one), emptied at the start.
    `reads_only` marks a handler that only shows the rider's data (a page's loads): it may rely on the
    connection's session verdict of the last few seconds."""

    def decorate(handler: Callable) -> Callable:
        @functools.wraps(handler)
        async def act(self, *args, **kwargs):
            if errors:
                setattr(self, errors, {} if isinstance(getattr(self, errors), dict) else "")
            if busy:
                setattr(self, busy, True)
                yield
            try:
                with get_session() as db:
                    account = await signed_in_account(self, db, reads_only)
                    if account is None:
                        yield SessionState.guard
                        return
                    result = handler(self, Rider(db, account), *args, **kwargs)
                    if inspect.isasyncgen(result):
                        async for update in result:
                            yield update
                    elif (update := await result) is not None:
                        yield update
            except FormErrors as exc:
                if not errors:
                    raise
                first = next(iter(exc.errors.values()))
                setattr(self, errors, exc.errors if isinstance(getattr(self, errors), dict) else first)
            finally:
                if busy:
                    setattr(self, busy, False)

        # Reflex reads the handler's arguments from its signature: the rider is not one the browser sends.
        signature = inspect.signature(handler)
        own, _rider, *sent = signature.parameters.values()
        act.__signature__ = signature.replace(parameters=[own, *sent])
        act.__annotations__ = {
            name: kind for name, kind in handler.__annotations__.items() if name != "rider"
        }
        return act

    return decorate
