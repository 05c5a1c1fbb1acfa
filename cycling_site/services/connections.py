"""External apps (spec 2 sections 4, 5 and 7): connect and disconnect a rider's fitness apps.

Every OAuth app gets a random `state` with its authorization request, stored for 10 minutes and bound to
the account and the app; the callback must bring it back, and it works once. The spec asks this of Whoop
only; the site does it for every app, since it is what stops a forged callback from linking someone
else's account. Xert links with the rider's Xert username and password instead.
"""

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, delete, select

from cycling_site.clients import oauth
from cycling_site.clients.oauth import OAuthFailure
from cycling_site.db import off_loop
from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.models import Account, Connection, OAuthState
from cycling_site.services.accounts import FormErrors
from cycling_site.settings import PASSWORD_GRANT_NETWORKS, settings
from cycling_site.wire.oauth import NETWORK_NAMES, redirect_uri

STAFF_ONLY_NETWORKS = frozenset({"whoop"})
# Apps whose terms the rider accepts on the site's terms page before being sent to them (spec 2 section 7).
TERMS_PAGES = {"analogx": "/analogx-terms"}
STATE_LIFETIME = timedelta(minutes=10)
STATE_MAX = 64
CALLBACK_FIELD_MAX = 4000
XERT_FIELD_MAX = 200


class ConnectionFailed(FormErrors):
    """The app link failed; nothing was stored. Its one message is the spec's generic error."""

    def __init__(self, reason: str):
        super().__init__({"form": account_msg.OAUTH_ERROR})
        self.reason = reason


@dataclass(frozen=True)
class NetworkStatus:
    network: str
    name: str
    uses_password: bool
    connected: bool
    external_user: str
    connected_at: datetime | None
    terms_page: str


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def offered(account: Account, network: str) -> bool:
    """Whether this rider may connect the app: Whoop only for accounts that are not normal users, and
    in production only apps with a client registration (the demo provider serves demo mode only)."""
    if network not in NETWORK_NAMES:
        return False
    if network in STAFF_ONLY_NETWORKS and account.is_normal_user:
        return False
    return settings.demo or settings.oauth[network].configured


def offered_networks(account: Account) -> list[str]:
    return [network for network in NETWORK_NAMES if offered(account, network)]


def _connection(session: Session, account: Account, network: str) -> Connection | None:
    return session.exec(
        select(Connection).where(Connection.account_id == account.id, Connection.network == network)
    ).first()


def statuses(session: Session, account: Account) -> list[NetworkStatus]:
    """The apps this rider is offered, in the spec's order, with what is connected."""
    rows = {
        row.network: row
        for row in session.exec(select(Connection).where(Connection.account_id == account.id))
    }
    return [
        NetworkStatus(
            network=network,
            name=NETWORK_NAMES[network],
            uses_password=network in PASSWORD_GRANT_NETWORKS,
            connected=network in rows,
            external_user=rows[network].external_user if network in rows else "",
            connected_at=_aware(rows[network].created_at) if network in rows else None,
            terms_page=TERMS_PAGES.get(network, ""),
        )
        for network in offered_networks(account)
    ]


def _oauth_network(account: Account, network: str) -> str:
    network = (network or "").strip().lower()
    if not offered(account, network) or network in PASSWORD_GRANT_NETWORKS:
        raise FormErrors({"network": msg.UNKNOWN_NETWORK})
    return network


async def authorization_url(
    session: Session, account: Account, network: str, terms_accepted: bool = False
) -> str:
    """Where to send the rider to allow the link, with a fresh single-use state. An app with a terms page
    (AnalogX) is not linked until the rider accepts its terms."""
    network = _oauth_network(account, network)
    if network in TERMS_PAGES and not terms_accepted:
        raise FormErrors({"terms": msg.TERMS_REQUIRED.format(name=NETWORK_NAMES[network])})
    state = await off_loop(_new_state, session, account, network)
    return await oauth.client_for(network).get_authorization_url(redirect_uri(network), state=state)


def _new_state(session: Session, account: Account, network: str) -> str:
    """A fresh single-use state for the rider's link to the app; expired ones go."""
    now = datetime.now(UTC)
    session.exec(delete(OAuthState).where(OAuthState.expires_at < now))
    state = secrets.token_urlsafe(32)
    session.add(
        OAuthState(state=state, account_id=account.id, network=network, expires_at=now + STATE_LIFETIME)
    )
    session.commit()
    return state


def _take_state(session: Session, account: Account, network: str, state: str) -> None:
    """Uses the state up, or raises ConnectionFailed: unknown, another rider's or app's, or expired."""
    row = session.get(OAuthState, state) if state and len(state) <= STATE_MAX else None
    if row is None:
        raise ConnectionFailed("unknown state")
    if row.account_id != account.id or row.network != network:
        raise ConnectionFailed("state of another account or app")
    session.delete(row)
    session.commit()
    if _aware(row.expires_at) < datetime.now(UTC):
        raise ConnectionFailed("expired state")


def _store(session: Session, account: Account, network: str, linked: oauth.LinkedAccount) -> Connection:
    row = _connection(session, account, network) or Connection(account_id=account.id, network=network)
    row.external_user = linked.external_user
    row.access_token = linked.access_token
    row.refresh_token = linked.refresh_token
    row.expires_at = linked.expires_at
    row.created_at = datetime.now(UTC)
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


async def complete_authorization(
    session: Session, account: Account, network: str, code: str = "", state: str = "", error: str = ""
) -> Connection:
    """The callback: checks and uses up the state, then exchanges the code for tokens and stores them.

    Any failure raises ConnectionFailed and stores nothing (the state is used up all the same).
    """
    network = (network or "").strip().lower()
    if not offered(account, network) or network in PASSWORD_GRANT_NETWORKS:
        raise ConnectionFailed("unknown app")
    if len(code) > CALLBACK_FIELD_MAX or len(error) > CALLBACK_FIELD_MAX:
        raise ConnectionFailed("oversized callback")
    await off_loop(_take_state, session, account, network, state)
    if error:
        raise ConnectionFailed(f"the app answered {error}")
    if not code:
        raise ConnectionFailed("no code")
    try:
        linked = await oauth.client_for(network).link_with_code(code)
    except OAuthFailure as exc:
        raise ConnectionFailed(str(exc)) from exc
    return await off_loop(_store, session, account, network, linked)


async def link_xert(session: Session, account: Account, username: str, password: str) -> Connection:
    """External-app link (xert): username and password required."""
    username = (username or "").strip()
    password = password or ""
    errors = {}
    if not username:
        errors["username"] = account_msg.required("Username")
    elif len(username) > XERT_FIELD_MAX:
        errors["username"] = account_msg.too_long("Username", XERT_FIELD_MAX)
    if not password:
        errors["password"] = account_msg.required("Password")
    elif len(password) > XERT_FIELD_MAX:
        errors["password"] = account_msg.too_long("Password", XERT_FIELD_MAX)
    if errors:
        raise FormErrors(errors)
    if not offered(account, "xert"):
        raise FormErrors({"network": msg.UNKNOWN_NETWORK})
    try:
        linked = await oauth.client_for("xert").link_with_password(username, password)
    except OAuthFailure as exc:
        raise ConnectionFailed(str(exc)) from exc
    return await off_loop(_store, session, account, "xert", linked)


def remove_connection(session: Session, account: Account, network: str) -> None:
    """remove_connection {account}: the app's tokens are forgotten."""
    network = (network or "").strip().lower()
    row = _connection(session, account, network) if network in NETWORK_NAMES else None
    if row is None:
        raise FormErrors({"account": msg.NOT_CONNECTED})
    session.delete(row)
    session.commit()
