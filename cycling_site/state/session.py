"""The signed-in rider as the browser sees it: two cookies, the header's user, the route guard."""

from urllib.parse import urlencode

import reflex as rx
from sqlmodel import Session

from cycling_site.db import get_session
from cycling_site.routes import path_of, requires_login
from cycling_site.services import accounts, profile, tokens
from cycling_site.settings import settings

HOME_AFTER_LOGIN = "/user/activities#profile"
CHECK_INTERVAL_MS = 120_000

_cookie_options = {
    "max_age": settings.session_remember_days * 24 * 3600,
    "domain": settings.cookie_domain or None,
    "secure": settings.cookie_secure or None,
    "same_site": "lax",
}


def login_url(reason: str, redirect: str) -> str:
    return f"{path_of('login')}?{urlencode({'redirect': redirect, 'reason': reason})}"


class SessionState(rx.State):
    user_id: str = rx.Cookie("", name="rider_id", **_cookie_options)
    token: str = rx.Cookie("", name="rider_token", **_cookie_options)
    signed_in: bool = False
    firstname: str = ""
    lastname: str = ""
    avatar: str = ""
    is_kid: bool = False

    @rx.var
    def initial(self) -> str:
        return (self.firstname[:1] or "?").upper()

    @rx.var
    def avatar_url(self) -> str:
        return profile.avatar_url(self.avatar)

    def _forget(self) -> None:
        self.user_id = ""
        self.token = ""
        self.signed_in = False
        self.firstname = self.lastname = self.avatar = ""
        self.is_kid = False

    def _remember(self, account) -> None:
        self.signed_in = True
        self.firstname = account.firstname
        self.lastname = account.lastname
        self.avatar = account.avatar or ""
        self.is_kid = account.is_kid

    def start(self, token: str, account) -> None:
        """Called by sign-in: stores both cookies and the header's user."""
        self.token = token
        self.user_id = account.uuid
        self._remember(account)

    def _check(self) -> str:
        """ok, missing (no cookies) or invalid (expired, revoked or tampered: cookies cleared)."""
        if not self.token or not self.user_id:
            self._forget()
            return "missing"
        with get_session() as session:
            check = tokens.check_session(session, self.token, self.user_id)
        if check.account is None:
            self._forget()
            return "invalid"
        self._remember(check.account)
        return "ok"

    def current_account(self, session: Session | None = None):
        """The signed-in account, checked afresh: a revoked or expired session reads nothing.

        Given the caller's database session, the account is read in it, ready to be changed there."""
        if session is not None:
            return tokens.check_session(session, self.token, self.user_id).account
        with get_session() as own:
            return tokens.check_session(own, self.token, self.user_id).account

    def _current_path(self) -> str:
        url = self.router.url
        return url.path + (f"?{url.query}" if url.query else "")

    @rx.event
    def guard(self):
        """On every page load and session check: routes flagged authRequired need a valid session."""
        status = self._check()
        if status == "ok" or not requires_login(self.router.url.path):
            return None
        reason = "session_expired" if status == "missing" else "token_expired"
        return rx.redirect(login_url(reason, self._current_path()), replace=True)

    def end(self) -> None:
        """Revokes the token and forgets the session."""
        if self.token:
            with get_session() as session:
                accounts.logout(session, self.token)
        self._forget()

    @rx.event
    def logout(self):
        self.end()
        return rx.redirect(path_of("login"))
