"""The Connections tab and the /oauth/{network} callback: thin handlers over services/connections.py."""

import dataclasses
import json

import reflex as rx

from cycling_site.db import get_session
from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.routes import path_of
from cycling_site.services import connections
from cycling_site.services.accounts import FormErrors
from cycling_site.services.connections import NETWORK_NAMES
from cycling_site.services.validation import checkbox_on
from cycling_site.state.session import Rider, login_url, rider_action, signed_in_account
from cycling_site.state.site_messages import display

AFTER_CALLBACK = f"{path_of('profile')}#connections"


@dataclasses.dataclass
class AppCard:
    network: str
    name: str
    uses_password: bool
    connected: bool
    external_user: str
    terms_page: str


class ConnectionsState(rx.State):
    apps: list[AppCard] = []
    loaded: bool = False
    error: str = ""
    busy: str = ""
    confirming: str = ""
    xert_errors: dict[str, str] = {}
    xert_submitting: bool = False
    terms_errors: dict[str, str] = {}
    terms_submitting: bool = False

    @rx.var
    def confirming_name(self) -> str:
        return NETWORK_NAMES.get(self.confirming, "")

    @rx.var
    def xert_form_error(self) -> str:
        return self.xert_errors.get("form", "")

    async def _refresh(self, rider: Rider) -> None:
        statuses = await rider.off_loop(connections.statuses, rider.account)
        self.apps = [
            AppCard(
                item.network,
                item.name,
                item.uses_password,
                item.connected,
                item.external_user,
                item.terms_page,
            )
            for item in statuses
        ]
        self.loaded = True

    @rx.event
    @rider_action()
    async def load(self, rider: Rider) -> None:
        """On mount; a page without a valid session is the route guard's to redirect."""
        self.error = ""
        self.busy = ""
        self.confirming = ""
        self.xert_errors = {}
        await self._refresh(rider)

    @rx.event
    @rider_action(errors="error")
    async def connect(self, rider: Rider, network: str):
        """Sends the rider to the app's authorization page."""
        self.busy = network
        yield
        try:
            url = await connections.authorization_url(rider.db, rider.account, network)
        finally:
            self.busy = ""
        yield await self._send_to_app(url)

    @rx.event
    def clear_terms(self) -> None:
        self.terms_errors = {}
        self.terms_submitting = False

    @rx.event
    @rider_action(busy="terms_submitting", errors="terms_errors")
    async def accept_terms(self, rider: Rider, form_data: dict):
        """The AnalogX terms page's form: accepted on the server, then on to AnalogX."""
        accepted = checkbox_on(form_data.get("terms"))
        url = await connections.authorization_url(rider.db, rider.account, "analogx", accepted)
        yield await self._send_to_app(url)

    async def _send_to_app(self, url: str) -> rx.event.EventSpec:
        """A full page load to the app's authorization page (another site)."""
        # The callback page must not open on an earlier attempt's error.
        (await self.get_state(OAuthCallbackState)).failed = False
        return rx.call_script(f"window.location.assign({json.dumps(url)})")

    @rx.event
    def ask_disconnect(self, network: str) -> None:
        self.confirming = network
        self.error = ""

    @rx.event
    def dialog_open_change(self, is_open: bool) -> None:
        if not is_open and not self.busy:
            self.confirming = ""

    @rx.event
    @rider_action()
    async def disconnect(self, rider: Rider, network: str):
        self.busy = network
        yield
        try:
            await rider.off_loop(connections.remove_connection, rider.account, network)
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
        else:
            yield display(msg.disconnected(NETWORK_NAMES.get(network, network)))
        finally:
            self.busy = self.confirming = ""
        await self._refresh(rider)

    @rx.event
    @rider_action(busy="xert_submitting", errors="xert_errors")
    async def link_xert(self, rider: Rider, form_data: dict):
        self.error = ""
        await connections.link_xert(
            rider.db, rider.account, str(form_data.get("username", "")), str(form_data.get("password", ""))
        )
        await self._refresh(rider)
        yield display(msg.connected(NETWORK_NAMES["xert"]))


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
        query = self.router.url.query_parameters
        try:
            with get_session() as session:
                account = await signed_in_account(self, session)
                if account is None:
                    # The callback is no authRequired route: sign in, then come back with the same query.
                    url = self.router.url
                    return rx.redirect(
                        login_url("session_expired", url.path + (f"?{url.query}" if url.query else ""))
                    )
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
        return [rx.redirect(AFTER_CALLBACK, replace=True), display(msg.connected(self.network_name))]

    @rx.var
    def error_text(self) -> str:
        return account_msg.OAUTH_ERROR if self.failed else ""
