"""The Connections tab and the /oauth/{network} callback: thin handlers over services/connections.py."""

import dataclasses
import json

import reflex as rx

from cycling_site.db import get_session
from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.models import Account
from cycling_site.routes import path_of
from cycling_site.services import connections
from cycling_site.services.accounts import FormErrors
from cycling_site.services.connections import NETWORK_NAMES
from cycling_site.state.session import SessionState, login_url

AFTER_CALLBACK = f"{path_of('profile')}#connections"


@dataclasses.dataclass
class AppCard:
    network: str
    name: str
    uses_password: bool
    connected: bool
    external_user: str


async def _signed_in_account(state: rx.State) -> Account | None:
    return (await state.get_state(SessionState)).current_account()


class ConnectionsState(rx.State):
    apps: list[AppCard] = []
    loaded: bool = False
    error: str = ""
    busy: str = ""
    confirming: str = ""
    xert_errors: dict[str, str] = {}
    xert_submitting: bool = False

    @rx.var
    def confirming_name(self) -> str:
        return NETWORK_NAMES.get(self.confirming, "")

    @rx.var
    def xert_form_error(self) -> str:
        return self.xert_errors.get("form", "")

    def _refresh(self, account: Account) -> None:
        with get_session() as session:
            self.apps = [
                AppCard(item.network, item.name, item.uses_password, item.connected, item.external_user)
                for item in connections.statuses(session, account)
            ]
        self.loaded = True

    @rx.event
    async def load(self) -> None:
        """On mount; a page without a valid session is the route guard's to redirect."""
        self.error = ""
        self.busy = ""
        self.confirming = ""
        self.xert_errors = {}
        account = await _signed_in_account(self)
        if account is not None:
            self._refresh(account)

    @rx.event
    async def connect(self, network: str):
        """Sends the rider to the app's authorization page (a full page load: it is another site)."""
        self.busy = network
        self.error = ""
        yield
        account = await _signed_in_account(self)
        if account is None:
            self.busy = ""
            yield SessionState.guard
            return
        try:
            with get_session() as session:
                url = await connections.authorization_url(session, account, network)
        except FormErrors as exc:
            self.busy = ""
            self.error = next(iter(exc.errors.values()))
            return
        # The callback page must not open on an earlier attempt's error.
        (await self.get_state(OAuthCallbackState)).failed = False
        yield rx.call_script(f"window.location.assign({json.dumps(url)})")

    @rx.event
    def ask_disconnect(self, network: str) -> None:
        self.confirming = network
        self.error = ""

    @rx.event
    def dialog_open_change(self, is_open: bool) -> None:
        if not is_open and not self.busy:
            self.confirming = ""

    @rx.event
    async def disconnect(self, network: str):
        self.busy = network
        yield
        account = await _signed_in_account(self)
        if account is None:
            self.busy = self.confirming = ""
            yield SessionState.guard
            return
        name = NETWORK_NAMES.get(network, network)
        try:
            with get_session() as session:
                connections.remove_connection(session, account, network)
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
        else:
            yield rx.toast.success(msg.disconnected(name))
        finally:
            self.busy = self.confirming = ""
        self._refresh(account)

    @rx.event
    async def link_xert(self, form_data: dict):
        self.xert_submitting = True
        self.xert_errors = {}
        self.error = ""
        yield
        account = await _signed_in_account(self)
        if account is None:
            self.xert_submitting = False
            yield SessionState.guard
            return
        try:
            with get_session() as session:
                await connections.link_xert(
                    session, account, str(form_data.get("username", "")), str(form_data.get("password", ""))
                )
        except FormErrors as exc:
            self.xert_errors = exc.errors
            return
        finally:
            self.xert_submitting = False
        self._refresh(account)
        yield rx.toast.success(msg.connected(NETWORK_NAMES["xert"]))


class OAuthCallbackState(rx.State):
    """/oauth/{network}/{source?}: hands the app's answer to the server, then back to the profile."""

    failed: bool = False
    network_name: str = ""

    @rx.event
    async def finish(self):
        self.failed = False
        parts = self.router.url.path.strip("/").split("/")
        network = parts[1].lower() if len(parts) > 1 else ""
        self.network_name = NETWORK_NAMES.get(network, "Connections")
        account = await _signed_in_account(self)
        if account is None:
            # The callback is no authRequired route: sign in, then come back with the same query.
            url = self.router.url
            return rx.redirect(
                login_url("session_expired", url.path + (f"?{url.query}" if url.query else ""))
            )
        query = self.router.url.query_parameters
        try:
            with get_session() as session:
                await connections.complete_authorization(
                    session,
                    account,
                    network,
                    code=str(query.get("code", "")),
                    state=str(query.get("state", "")),
                    error=str(query.get("error", "")),
                )
        except FormErrors:
            self.failed = True
            return None
        return [rx.redirect(AFTER_CALLBACK, replace=True), rx.toast.success(msg.connected(self.network_name))]

    @rx.var
    def error_text(self) -> str:
        return account_msg.OAUTH_ERROR if self.failed else ""
