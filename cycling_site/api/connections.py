"""External apps (spec 1 section 7 "POST oauth, oauth/check, oauth/authorize/code"; spec 2 section 7
remove_connection): list, connect through OAuth, link Xert, disconnect."""

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cycling_site.api.answers import CONSTANTS_SENT, Answer, AnswerModel, AnswerWithMessage, Link, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import requires, trimmed
from cycling_site.messages import connections as msg
from cycling_site.models import Connection
from cycling_site.services import connections
from cycling_site.services.connections import NETWORK_NAMES, TERMS_PAGES, XERT_FIELD_MAX, NetworkStatus
from cycling_site.settings import PASSWORD_GRANT_NETWORKS

router = APIRouter(tags=["connections"])

SHORT = 300
LONG = 4000


def _terms_accepted_for_terms_pages() -> list[dict]:
    """An app with a terms page (AnalogX) is linked only with its terms accepted."""
    return [
        {
            "if": {"properties": {"network": {"const": network}}, "required": ["network"]},
            "then": {"properties": {"terms_accepted": {"const": True}}, "required": ["terms_accepted"]},
        }
        for network in TERMS_PAGES
    ]


class NetworkIn(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={"required": ["network"], "allOf": _terms_accepted_for_terms_pages()}
    )

    network: str = Field(
        default="",
        max_length=SHORT,
        description="An app linked through OAuth (staff-only apps only for staff)",
        json_schema_extra={"enum": [name for name in NETWORK_NAMES if name not in PASSWORD_GRANT_NETWORKS]},
    )
    terms_accepted: StrictBool = Field(
        default=False, description="The rider accepted the app's terms page (required for AnalogX)"
    )


class CallbackIn(BaseModel):
    """The callback's route and query parameters, as the app sent the rider back."""

    network: str = Field(default="", max_length=SHORT)
    source: str | None = Field(default=None, max_length=SHORT)
    code: str = Field(default="", max_length=LONG)
    state: str = Field(default="", max_length=SHORT)
    error: str = Field(default="", max_length=LONG)


class RemoveIn(BaseModel):
    account: str = Field(default="", max_length=SHORT, description="The app to disconnect, e.g. strava")


class XertIn(BaseModel):
    model_config = requires("username", "password")

    username: str = Field(default="", max_length=SHORT, json_schema_extra=trimmed(XERT_FIELD_MAX))
    password: str = Field(
        default="", max_length=SHORT, json_schema_extra={"minLength": 1, "maxLength": XERT_FIELD_MAX}
    )


class ConnectionStatus(AnswerModel):
    """One app the rider may connect, and whether it is connected."""

    network: str = Field(description="The app's id, e.g. strava")
    name: str
    usesPassword: bool = Field(description="Linked with a username and password (Xert), not through OAuth")
    connected: bool
    externalUser: str = Field(description="The rider's name in the app; empty when not connected")
    connectedAt: str | None = Field(description="ISO 8601 date and time, UTC; null when not connected")
    termsPage: str = Field(description="The site's page with the app's terms to accept first; empty if none")


class Connected(AnswerModel):
    """The app just connected."""

    model_config = CONSTANTS_SENT

    network: str
    name: str
    connected: Literal[True] = True
    externalUser: str


def _status(item: NetworkStatus) -> ConnectionStatus:
    return ConnectionStatus(
        network=item.network,
        name=item.name,
        usesPassword=item.uses_password,
        connected=item.connected,
        externalUser=item.external_user,
        connectedAt=item.connected_at.isoformat() if item.connected_at else None,
        termsPage=item.terms_page,
    )


def _connected(row: Connection) -> AnswerWithMessage[Connected]:
    name = NETWORK_NAMES[row.network]
    data = Connected(network=row.network, name=name, externalUser=row.external_user)
    return AnswerWithMessage[Connected](message=msg.connected(name), data=data)


@router.get("/auth/connections", responses=documented(401, 503))
def list_connections(account: CurrentAccount, session: DB) -> Answer[list[ConnectionStatus]]:
    statuses = [_status(item) for item in connections.statuses(session, account)]
    return Answer[list[ConnectionStatus]](data=statuses)


@router.post("/oauth/authorize/code", responses=documented(400, 401, 403, 413, 503))
async def authorize(body: NetworkIn, account: CurrentAccount, session: DB) -> Answer[Link]:
    """Answers the app's authorization URL (with a fresh single-use state) to send the rider to."""
    url = await connections.authorization_url(session, account, body.network, body.terms_accepted)
    return Answer[Link](data=Link(url=url))


@router.post("/oauth/check", responses=documented(400, 401, 403, 413, 503))
async def check(body: CallbackIn, account: CurrentAccount, session: DB) -> AnswerWithMessage[Connected]:
    """The callback's query: checks the state, exchanges the code and connects the app."""
    row = await connections.complete_authorization(
        session, account, body.network, code=body.code, state=body.state, error=body.error
    )
    return _connected(row)


@router.post("/oauth/xert", responses=documented(400, 401, 403, 413, 503))
async def link_xert(body: XertIn, account: CurrentAccount, session: DB) -> AnswerWithMessage[Connected]:
    row = await connections.link_xert(session, account, body.username, body.password)
    return _connected(row)


@router.post("/auth/remove_connection", responses=documented(400, 401, 403, 413, 503))
def remove_connection(body: RemoveIn, account: CurrentAccount, session: DB) -> Message:
    connections.remove_connection(session, account, body.account)
    network = body.account.strip().lower()
    return Message(message=msg.disconnected(NETWORK_NAMES[network]))
