"""Connecting fitness apps: the single-use OAuth state, who is offered what, token exchange failures, Xert."""

import dataclasses
import socket
import threading
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlmodel import select

from cycling_site.clients import oauth
from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.models import Connection, OAuthState
from cycling_site.services import connections
from cycling_site.services.accounts import FormErrors
from cycling_site.services.connections import NETWORK_NAMES, ConnectionFailed
from cycling_site.settings import OAUTH_NETWORKS, load_settings
from tests.unit.conftest import count, statement_threads
from tests.unit.connections_support import consent, query_of, registration

pytestmark = pytest.mark.anyio

ALL_BUT_WHOOP = ["strava", "todaysplan", "trainingpeaks", "intervals", "analogx", "xert"]


async def start(session, account, network="strava") -> dict[str, str]:
    """Asks for the authorization URL and answers the query it carries."""
    return query_of(await connections.authorization_url(session, account, network, terms_accepted=True))


async def allowed_callback(session, account, provider_client, network="strava") -> dict[str, str]:
    url = await connections.authorization_url(session, account, network, terms_accepted=True)
    return consent(provider_client, url, "allow")


def stored_connections(session) -> list[Connection]:
    session.expire_all()
    return list(session.exec(select(Connection)))


# --- Who is offered which app ----------------------------------------------------------------------------


def test_every_app_of_the_settings_has_a_name():
    assert tuple(NETWORK_NAMES) == OAUTH_NETWORKS


def test_whoop_is_offered_only_to_accounts_that_are_not_normal_users(session, make_account):
    rider = make_account()
    staff = make_account(email="admin@example.com", is_normal_user=False)
    assert connections.offered_networks(rider) == ALL_BUT_WHOOP
    assert connections.offered_networks(staff) == [*ALL_BUT_WHOOP, "whoop"]
    assert [item.network for item in connections.statuses(session, rider)] == ALL_BUT_WHOOP


def test_production_offers_only_apps_with_a_client_registration(session, make_account, use_settings):
    strava = registration(client_id="id", client_secret="s", authorize_url="https://a", token_url="https://t")
    use_settings(app_env="production", oauth_registrations={"strava": strava})
    assert connections.offered_networks(make_account()) == ["strava"]


async def test_whoop_is_refused_to_normal_users_on_the_server(session, make_account, provider):
    rider = make_account()
    with pytest.raises(FormErrors) as refused:
        await connections.authorization_url(session, rider, "whoop")
    assert refused.value.errors == {"network": msg.UNKNOWN_NETWORK}
    assert count(session, OAuthState) == 0

    # Even with a whoop state of their own (made by hand), the callback refuses them.
    session.add(OAuthState(state="s" * 43, account_id=rider.id, network="whoop", expires_at=_in(minutes=5)))
    session.commit()
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "whoop", code="any", state="s" * 43)
    assert stored_connections(session) == []


async def test_staff_connect_whoop(session, make_account, provider):
    staff = make_account(email="admin@example.com", is_normal_user=False)
    callback = await allowed_callback(session, staff, provider, "whoop")
    row = await connections.complete_authorization(session, staff, "whoop", **callback)
    assert (row.network, row.external_user) == ("whoop", "Demo Athlete")


# --- The authorization request ---------------------------------------------------------------------------


async def test_linking_uses_the_database_only_off_the_event_loop(session, make_account):
    rider = make_account()
    with statement_threads(session) as threads:
        query = query_of(await connections.authorization_url(session, rider, "strava"))
        with pytest.raises(ConnectionFailed):
            await connections.complete_authorization(session, rider, "strava", code="x", state=query["state"])
        with pytest.raises(ConnectionFailed):
            await connections.link_xert(session, rider, "rider", "wrong password")
    assert len(threads) >= 3 and threading.get_ident() not in threads


async def test_authorization_url_carries_a_stored_state_bound_to_account_and_app(session, make_account):
    rider = make_account()
    before = datetime.now(UTC)
    url = await connections.authorization_url(session, rider, "Strava")
    query = query_of(url)
    assert url.startswith(oauth.endpoints("strava").authorize_url + "?")
    assert query["response_type"] == "code"
    assert query["client_id"] == oauth.demo_registration("strava")[0]
    assert query["redirect_uri"] == oauth.redirect_uri("strava")
    row = session.get(OAuthState, query["state"])
    assert (row.account_id, row.network) == (rider.id, "strava")
    assert len(query["state"]) >= 40
    lifetime = connections._aware(row.expires_at) - before
    assert timedelta(minutes=9) < lifetime <= timedelta(minutes=10, seconds=5)


async def test_each_request_gets_a_new_state_and_expired_ones_are_swept(session, make_account):
    rider = make_account()
    session.add(OAuthState(state="old", account_id=rider.id, network="strava", expires_at=_in(minutes=-1)))
    session.commit()
    first = (await start(session, rider))["state"]
    second = (await start(session, rider))["state"]
    assert first != second
    session.expire_all()
    assert session.get(OAuthState, "old") is None
    assert count(session, OAuthState) == 2


@pytest.mark.parametrize("network", ["garmin", "", "xert", "whoop"])
async def test_no_authorization_for_apps_not_offered(session, make_account, network):
    with pytest.raises(FormErrors) as refused:
        await connections.authorization_url(session, make_account(), network)
    assert refused.value.errors == {"network": msg.UNKNOWN_NETWORK}
    assert count(session, OAuthState) == 0


async def test_analogx_is_not_linked_before_its_terms_are_accepted(session, make_account):
    rider = make_account()
    with pytest.raises(FormErrors) as refused:
        await connections.authorization_url(session, rider, "analogx")
    assert refused.value.errors == {"terms": msg.TERMS_REQUIRED.format(name="AnalogX")}
    assert count(session, OAuthState) == 0
    assert (await start(session, rider, "analogx"))["state"]
    assert {item.network: item.terms_page for item in connections.statuses(session, rider)}["analogx"] == (
        "/analogx-terms"
    )


def test_configured_app_uses_its_own_endpoints_and_scope(use_settings):
    strava = registration(
        client_id="1234",
        client_secret="secret",
        authorize_url="https://www.strava.com/oauth/authorize",
        token_url="https://www.strava.com/oauth/token",
        scope="read activity:read_all",
    )
    use_settings(oauth_registrations={"strava": strava})
    client = oauth.client_for("strava")
    assert client.config.embedded is False
    assert (client.client_id, client.access_token_endpoint) == ("1234", "https://www.strava.com/oauth/token")
    assert client.base_scopes == ["read", "activity:read_all"]
    assert oauth.client_for("todaysplan").config.embedded is True


# --- The callback ----------------------------------------------------------------------------------------


async def test_allowed_callback_connects_the_app(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    row = await connections.complete_authorization(session, rider, "strava", **callback)

    [stored] = stored_connections(session)
    assert stored.id == row.id
    assert (stored.account_id, stored.network, stored.external_user) == (rider.id, "strava", "Demo Athlete")
    assert stored.access_token and stored.refresh_token
    assert connections._aware(stored.expires_at) > datetime.now(UTC) + timedelta(hours=5)
    assert count(session, OAuthState) == 0
    status = connections.statuses(session, rider)[0]
    assert (status.network, status.connected, status.external_user) == ("strava", True, "Demo Athlete")


async def test_forged_state_is_refused_and_stores_nothing(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    for forged in ("forged-state", "", "x" * 500):
        with pytest.raises(ConnectionFailed) as failed:
            await connections.complete_authorization(
                session, rider, "strava", code=callback["code"], state=forged
            )
        assert failed.value.errors == {"form": account_msg.OAUTH_ERROR}
    assert stored_connections(session) == []
    # The real state is still there for the real callback.
    await connections.complete_authorization(session, rider, "strava", **callback)
    assert len(stored_connections(session)) == 1


async def test_expired_state_is_refused_and_used_up(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    row = session.get(OAuthState, callback["state"])
    row.expires_at = _in(seconds=-1)
    session.add(row)
    session.commit()
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", **callback)
    assert stored_connections(session) == []
    assert count(session, OAuthState) == 0


async def test_a_state_works_once(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    await connections.complete_authorization(session, rider, "strava", **callback)
    first = stored_connections(session)[0].access_token
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", **callback)
    assert [row.access_token for row in stored_connections(session)] == [first]


async def test_another_riders_state_is_refused_and_left_to_them(session, make_account, provider):
    owner = make_account()
    intruder = make_account(email="other@example.com")
    callback = await allowed_callback(session, owner, provider)
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, intruder, "strava", **callback)
    assert stored_connections(session) == []
    await connections.complete_authorization(session, owner, "strava", **callback)
    assert [row.account_id for row in stored_connections(session)] == [owner.id]


async def test_a_state_of_another_app_is_refused(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider, "strava")
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "trainingpeaks", **callback)
    assert stored_connections(session) == []
    await connections.complete_authorization(session, rider, "strava", **callback)
    assert [row.network for row in stored_connections(session)] == ["strava"]


@pytest.mark.parametrize("network", ["garmin", "", "xert"])
async def test_callback_for_an_unknown_app_is_refused(session, make_account, provider, network):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, network, **callback)
    assert stored_connections(session) == []


async def test_denied_consent_stores_nothing_and_uses_the_state_up(session, make_account, provider):
    rider = make_account()
    url = await connections.authorization_url(session, rider, "strava")
    callback = consent(provider, url, "deny")
    assert callback["error"] == "access_denied" and "code" not in callback
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(
            session, rider, "strava", state=callback["state"], error=callback["error"]
        )
    assert stored_connections(session) == []
    assert count(session, OAuthState) == 0


async def test_callback_without_a_code_is_refused(session, make_account):
    rider = make_account()
    state = (await start(session, rider))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", state=state)
    assert stored_connections(session) == []


async def test_reconnecting_replaces_the_tokens(session, make_account, provider):
    rider = make_account()
    await connections.complete_authorization(
        session, rider, "strava", **await allowed_callback(session, rider, provider)
    )
    first = stored_connections(session)[0].access_token
    await connections.complete_authorization(
        session, rider, "strava", **await allowed_callback(session, rider, provider)
    )
    [row] = stored_connections(session)
    assert row.access_token != first


# --- Token exchange failures -----------------------------------------------------------------------------


async def test_forged_code_is_refused_by_the_provider(session, make_account, provider):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    with pytest.raises(ConnectionFailed) as failed:
        await connections.complete_authorization(
            session, rider, "strava", code="forged", state=callback["state"]
        )
    assert "400" in failed.value.reason
    assert stored_connections(session) == []


async def test_a_code_is_exchanged_once(session, make_account, provider):
    rider = make_account()
    first = await allowed_callback(session, rider, provider)
    await connections.complete_authorization(session, rider, "strava", **first)
    second_state = (await start(session, rider))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(
            session, rider, "strava", code=first["code"], state=second_state
        )


async def test_code_of_another_app_is_refused_by_the_provider(session, make_account, provider):
    rider = make_account()
    strava = await allowed_callback(session, rider, provider, "strava")
    intervals_state = (await start(session, rider, "intervals"))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(
            session, rider, "intervals", code=strava["code"], state=intervals_state
        )
    assert stored_connections(session) == []


async def test_wrong_client_secret_is_refused(session, make_account, provider, monkeypatch):
    rider = make_account()
    callback = await allowed_callback(session, rider, provider)
    real = oauth.endpoints

    def wrong_secret(network):
        return dataclasses.replace(real(network), client_secret="not-the-secret")

    monkeypatch.setattr(oauth, "endpoints", wrong_secret)
    with pytest.raises(ConnectionFailed) as failed:
        await connections.complete_authorization(session, rider, "strava", **callback)
    assert "401" in failed.value.reason
    assert stored_connections(session) == []


async def test_unreachable_provider(session, make_account, use_settings):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{closed_port}"
    use_settings(
        oauth_registrations={
            "strava": registration(
                client_id="id",
                client_secret="s",
                authorize_url=f"{base}/authorize",
                token_url=f"{base}/token",
            )
        }
    )
    rider = make_account()
    state = (await start(session, rider))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", code="abc", state=state)
    assert stored_connections(session) == []


def _answering(monkeypatch, handler) -> None:
    def client_for(network):
        return oauth.FitnessAppClient(oauth.endpoints(network), httpx.MockTransport(handler))

    monkeypatch.setattr(oauth, "client_for", client_for)


@pytest.mark.parametrize(
    "token_answer",
    [
        httpx.Response(200, text="<html>not json</html>"),
        httpx.Response(200, json={"token_type": "Bearer"}),
        httpx.Response(200, json={"access_token": "", "token_type": "Bearer"}),
        httpx.Response(200, json=["a", "b"]),
        httpx.Response(200, json={"access_token": "t", "expires_in": "soon"}),
        httpx.Response(500, json={"error": "server_error"}),
    ],
    ids=["not-json", "no-token", "empty-token", "a-list", "bad-expiry", "server-error"],
)
async def test_unusable_token_answers_store_nothing(session, make_account, monkeypatch, token_answer):
    _answering(monkeypatch, lambda request: token_answer)
    rider = make_account()
    state = (await start(session, rider))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", code="abc", state=state)
    assert stored_connections(session) == []


async def test_profile_failure_stores_nothing(session, make_account, monkeypatch):
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/token"):
            return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer"})
        return httpx.Response(401, json={"error": "invalid_token"})

    _answering(monkeypatch, handler)
    rider = make_account()
    state = (await start(session, rider))["state"]
    with pytest.raises(ConnectionFailed):
        await connections.complete_authorization(session, rider, "strava", code="abc", state=state)
    assert stored_connections(session) == []


async def test_token_request_is_the_standard_code_grant(session, make_account, monkeypatch):
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/token"):
            return httpx.Response(200, json={"access_token": "t", "expires_in": 3600, "athlete": {"id": 7}})
        return httpx.Response(200, json={"firstname": "Layla", "lastname": "Haddad"})

    _answering(monkeypatch, handler)
    rider = make_account()
    state = (await start(session, rider))["state"]
    row = await connections.complete_authorization(session, rider, "strava", code="abc", state=state)
    token_request, profile_request = seen
    form = query_of("?" + token_request.content.decode())
    assert form["grant_type"] == "authorization_code"
    assert form["code"] == "abc"
    assert form["redirect_uri"] == oauth.redirect_uri("strava")
    assert form["client_id"] and form["client_secret"]
    assert profile_request.headers["authorization"] == "Bearer t"
    assert row.external_user == "Layla Haddad"


# --- Xert ------------------------------------------------------------------------------------------------


async def test_xert_needs_username_and_password(session, make_account, provider):
    with pytest.raises(FormErrors) as refused:
        await connections.link_xert(session, make_account(), "  ", "")
    assert refused.value.errors == {
        "username": account_msg.required("Username"),
        "password": account_msg.required("Password"),
    }
    assert stored_connections(session) == []


async def test_xert_wrong_password_stores_nothing(session, make_account, provider):
    with pytest.raises(ConnectionFailed) as failed:
        await connections.link_xert(session, make_account(), "joe", "wrong")
    assert failed.value.errors == {"form": account_msg.OAUTH_ERROR}
    assert stored_connections(session) == []


async def test_xert_links_with_the_demo_password(session, make_account, provider):
    rider = make_account()
    await connections.link_xert(session, rider, " joe.rider ", "xert-demo")
    [row] = stored_connections(session)
    assert (row.account_id, row.network, row.external_user) == (rider.id, "xert", "joe.rider")
    assert row.access_token


async def test_xert_too_long_fields(session, make_account):
    with pytest.raises(FormErrors) as refused:
        await connections.link_xert(session, make_account(), "u" * 201, "p" * 201)
    assert set(refused.value.errors) == {"username", "password"}


# --- Disconnect ------------------------------------------------------------------------------------------


async def test_remove_connection_removes_only_the_riders_own(session, make_account, provider):
    rider = make_account()
    other = make_account(email="other@example.com")
    await connections.link_xert(session, rider, "joe", "xert-demo")
    await connections.link_xert(session, other, "ann", "xert-demo")
    connections.remove_connection(session, rider, "XERT")
    assert [(row.account_id, row.external_user) for row in stored_connections(session)] == [(other.id, "ann")]
    with pytest.raises(FormErrors) as refused:
        connections.remove_connection(session, rider, "xert")
    assert refused.value.errors == {"account": msg.NOT_CONNECTED}
    with pytest.raises(FormErrors):
        connections.remove_connection(session, rider, "garmin")


# --- Reading the connected account's name ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "name"),
    [
        (({}, {"athlete": {"id": 12, "firstname": "Layla", "lastname": "Haddad"}}), "Layla Haddad"),
        (({"user_id": 99, "first_name": "Omar", "last_name": "H"}, {}), "Omar H"),
        (({"username": "ridefast"}, {}), "ridefast"),
        (({"Name": "Sara N"}, {}), "Sara N"),
        (({}, {"athlete": {"id": 12}}), "12"),
        (({"name": True, "email": "a@example.com"}, {}), "a@example.com"),
        (({}, {}), ""),
    ],
)
def test_external_user(answers, name):
    assert oauth.external_user(*answers) == name


# --- Settings --------------------------------------------------------------------------------------------


def test_a_client_id_needs_its_secret_and_endpoints(monkeypatch, tmp_path):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("OAUTH_STRAVA_CLIENT_ID", "1234")
    with pytest.raises(ValueError, match="OAUTH_STRAVA_CLIENT_SECRET, OAUTH_STRAVA_AUTHORIZE_URL"):
        load_settings()
    monkeypatch.setenv("OAUTH_STRAVA_CLIENT_SECRET", "s")
    monkeypatch.setenv("OAUTH_STRAVA_AUTHORIZE_URL", "https://www.strava.com/oauth/authorize")
    monkeypatch.setenv("OAUTH_STRAVA_TOKEN_URL", "https://www.strava.com/oauth/token")
    assert load_settings().oauth["strava"].configured
    # Xert needs no authorize URL.
    for name, value in (
        ("CLIENT_ID", "xert_public"),
        ("CLIENT_SECRET", "xert_public"),
        ("TOKEN_URL", "https://x"),
    ):
        monkeypatch.setenv(f"OAUTH_XERT_{name}", value)
    assert load_settings().oauth["xert"].configured


def _in(**delta) -> datetime:
    return datetime.now(UTC) + timedelta(**delta)
