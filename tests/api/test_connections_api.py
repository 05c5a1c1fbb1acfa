"""The connections API and the demo OAuth provider as callers see them: one answer shape, never 500."""

import base64
from datetime import date

import pytest
from sqlmodel import select

from cycling_site.clients import oauth
from cycling_site.embedded.oauth_provider import service as oauth_provider
from cycling_site.messages import accounts as account_msg
from cycling_site.messages import connections as msg
from cycling_site.models import Connection, OAuthState
from cycling_site.settings import settings
from tests.api.auth_support import bearer
from tests.api.test_auth_api import assert_error_shape
from tests.unit.conftest import count
from tests.unit.connections_support import consent, query_of

LIST = "/api/auth/connections"
AUTHORIZE = "/api/oauth/authorize/code"
CHECK = "/api/oauth/check"
XERT = "/api/oauth/xert"
REMOVE = "/api/auth/remove_connection"
PROVIDER = oauth.EMBEDDED_PREFIX


def assert_error(response, status_code: int = 400) -> dict:
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["status"] is False and body["message"]
    return body


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def staff(make_account):
    return make_account(email="admin@example.com", is_normal_user=False, dob=date(1980, 1, 1))


def connect_strava(client, provider, account) -> dict:
    url = client.post(AUTHORIZE, json={"network": "strava"}, headers=bearer(account)).json()["data"]["url"]
    callback = consent(provider, url)
    response = client.post(CHECK, json={"network": "strava", **callback}, headers=bearer(account))
    assert response.status_code == 200, response.text
    return response.json()


# --- Signed-in only --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", LIST, None),
        ("POST", AUTHORIZE, {"network": "strava"}),
        ("POST", CHECK, {"network": "strava", "code": "c", "state": "s"}),
        ("POST", XERT, {"username": "joe", "password": "xert-demo"}),
        ("POST", REMOVE, {"account": "strava"}),
    ],
)
def test_every_endpoint_needs_a_session(client, session, method, path, body):
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        response = client.request(method, path, json=body, headers=headers)
        assert assert_error(response, 401)["message"] == account_msg.SESSION_EXPIRED
    assert count(session, OAuthState) == 0 and count(session, Connection) == 0


# --- List ------------------------------------------------------------------------------------------------


def test_list_shows_the_offered_apps_and_what_is_connected(client, rider, provider):
    body = client.get(LIST, headers=bearer(rider)).json()
    assert body["status"] is True
    assert [item["network"] for item in body["data"]] == [
        "strava",
        "todaysplan",
        "trainingpeaks",
        "intervals",
        "analogx",
        "xert",
    ]
    assert body["data"][0] == {
        "network": "strava",
        "name": "Strava",
        "usesPassword": False,
        "connected": False,
        "externalUser": "",
        "connectedAt": None,
        "termsPage": "",
    }
    assert body["data"][4]["termsPage"] == "/analogx-terms"
    assert body["data"][5]["usesPassword"] is True

    connect_strava(client, provider, rider)
    strava = client.get(LIST, headers=bearer(rider)).json()["data"][0]
    assert (strava["connected"], strava["externalUser"]) == (True, "Demo Athlete")
    assert strava["connectedAt"]


def test_analogx_asks_for_its_terms_first(client, rider):
    refused = client.post(AUTHORIZE, json={"network": "analogx"}, headers=bearer(rider))
    assert assert_error_shape(refused)["errors"] == {"terms": [msg.TERMS_REQUIRED.format(name="AnalogX")]}
    accepted = client.post(
        AUTHORIZE, json={"network": "analogx", "terms_accepted": True}, headers=bearer(rider)
    )
    assert accepted.status_code == 200
    assert "state=" in accepted.json()["data"]["url"]


def test_list_shows_whoop_to_staff(client, staff):
    data = client.get(LIST, headers=bearer(staff)).json()["data"]
    assert data[-1]["network"] == "whoop" and data[-1]["name"] == "Whoop"


# --- Authorize and check ---------------------------------------------------------------------------------


def test_connect_strava_through_the_demo_provider(client, session, rider, provider):
    response = client.post(AUTHORIZE, json={"network": "strava"}, headers=bearer(rider))
    assert response.status_code == 200
    url = response.json()["data"]["url"]
    page = provider.get(url.removeprefix(settings.site_url))
    assert "Allow RideArena to connect to Strava?" in page.text
    callback = consent(provider, url)
    response = client.post(
        CHECK, json={"network": "strava", "source": "web", **callback}, headers=bearer(rider)
    )
    assert response.status_code == 200, response.text
    assert response.json() == {
        "status": True,
        "message": msg.connected("Strava"),
        "data": {"network": "strava", "name": "Strava", "connected": True, "externalUser": "Demo Athlete"},
    }
    [row] = session.exec(select(Connection)).all()
    assert (row.account_id, row.network) == (rider.id, "strava")


@pytest.mark.parametrize("network", ["garmin", "", "xert", "whoop"])
def test_authorize_refuses_apps_not_offered(client, session, rider, network):
    body = assert_error(client.post(AUTHORIZE, json={"network": network}, headers=bearer(rider)))
    assert body["errors"] == {"network": [msg.UNKNOWN_NETWORK]}
    assert count(session, OAuthState) == 0


def test_staff_may_authorize_whoop(client, staff):
    response = client.post(AUTHORIZE, json={"network": "whoop"}, headers=bearer(staff))
    assert response.status_code == 200
    assert query_of(response.json()["data"]["url"])["state"]


@pytest.mark.parametrize(
    "callback",
    [
        {"code": "c", "state": "forged"},
        {"code": "c"},
        {"error": "access_denied", "state": "forged"},
        {},
    ],
    ids=["forged-state", "no-state", "provider-error", "empty"],
)
def test_check_failures_answer_the_spec_message(client, session, rider, callback):
    body = assert_error(client.post(CHECK, json={"network": "strava", **callback}, headers=bearer(rider)))
    assert body["message"] == account_msg.OAUTH_ERROR
    assert body["errors"] == {"form": [account_msg.OAUTH_ERROR]}
    assert count(session, Connection) == 0


def test_check_with_a_used_state(client, session, rider, provider):
    url = client.post(AUTHORIZE, json={"network": "strava"}, headers=bearer(rider)).json()["data"]["url"]
    callback = consent(provider, url)
    assert (
        client.post(CHECK, json={"network": "strava", **callback}, headers=bearer(rider)).status_code == 200
    )
    again = client.post(CHECK, json={"network": "strava", **callback}, headers=bearer(rider))
    assert assert_error(again)["message"] == account_msg.OAUTH_ERROR
    assert count(session, Connection) == 1


def test_check_with_another_riders_state(client, session, rider, make_account, provider):
    other = make_account(email="other@example.com")
    url = client.post(AUTHORIZE, json={"network": "strava"}, headers=bearer(rider)).json()["data"]["url"]
    callback = consent(provider, url)
    response = client.post(CHECK, json={"network": "strava", **callback}, headers=bearer(other))
    assert assert_error(response)["message"] == account_msg.OAUTH_ERROR
    assert count(session, Connection) == 0


# --- Xert ------------------------------------------------------------------------------------------------


def test_xert_link(client, session, rider, provider):
    body = assert_error(client.post(XERT, json={"username": "", "password": ""}, headers=bearer(rider)))
    assert body["errors"] == {
        "username": [account_msg.required("Username")],
        "password": [account_msg.required("Password")],
    }
    wrong = assert_error(
        client.post(XERT, json={"username": "joe", "password": "nope"}, headers=bearer(rider))
    )
    assert wrong["message"] == account_msg.OAUTH_ERROR
    assert count(session, Connection) == 0

    response = client.post(XERT, json={"username": "joe", "password": "xert-demo"}, headers=bearer(rider))
    assert response.status_code == 200
    assert response.json()["data"]["externalUser"] == "joe"
    xert = client.get(LIST, headers=bearer(rider)).json()["data"][5]
    assert (xert["network"], xert["connected"], xert["externalUser"]) == ("xert", True, "joe")


# --- Remove ----------------------------------------------------------------------------------------------


def test_remove_connection(client, session, rider, make_account, provider):
    other = make_account(email="other@example.com")
    connect_strava(client, provider, rider)
    connect_strava(client, provider, other)

    response = client.post(REMOVE, json={"account": "strava"}, headers=bearer(rider))
    assert response.json() == {"status": True, "message": msg.disconnected("Strava")}
    session.expire_all()
    assert [row.account_id for row in session.exec(select(Connection))] == [other.id]

    for account in ("strava", "garmin", ""):
        body = assert_error(client.post(REMOVE, json={"account": account}, headers=bearer(rider)))
        assert body["errors"] == {"account": [msg.NOT_CONNECTED]}
    assert count(session, Connection) == 1


# --- Never 500 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [AUTHORIZE, CHECK, XERT, REMOVE])
@pytest.mark.parametrize(
    "body",
    [
        None,
        [],
        "text",
        {"network": ["strava"], "account": {"a": 1}, "username": 5, "password": None},
        {
            "network": "s" * 5000,
            "code": "c" * 5000,
            "state": "s" * 500,
            "account": "a" * 500,
            "username": "u" * 500,
        },
        {"network": "strava\u0000", "state": "\u0000", "account": "../strava"},
    ],
    ids=["no-body", "list", "text", "wrong-types", "oversized", "odd-characters"],
)
def test_malformed_bodies_answer_400(client, session, rider, path, body):
    response = client.post(path, json=body, headers=bearer(rider))
    assert_error(response)
    assert count(session, Connection) == 0


# --- The demo provider -----------------------------------------------------------------------------------


def authorize_query(network: str = "strava", **changes) -> dict[str, str]:
    client_id, _ = oauth.demo_registration(network)
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": oauth.redirect_uri(network),
        "state": "abc",
    }
    return {**query, **changes}


def test_provider_refuses_unknown_clients_and_foreign_redirects(provider):
    assert provider.get(f"{PROVIDER}/strava/authorize", params=authorize_query()).status_code == 200
    for changes, error in (
        ({"client_id": "someone-else"}, "invalid_client"),
        ({"client_id": oauth.demo_registration("intervals")[0]}, "invalid_client"),
        ({"redirect_uri": "https://evil.example.com/oauth/strava"}, "invalid_redirect_uri"),
        ({"redirect_uri": oauth.redirect_uri("strava") + "evil"}, "invalid_redirect_uri"),
        ({"response_type": "token"}, "unsupported_response_type"),
    ):
        page = provider.get(f"{PROVIDER}/strava/authorize", params=authorize_query(**changes))
        assert page.status_code == 400 and error in page.text
        decision = provider.post(
            f"{PROVIDER}/strava/authorize",
            data={**authorize_query(**changes), "decision": "allow"},
            follow_redirects=False,
        )
        assert "location" not in decision.headers


def test_provider_serves_only_unconfigured_apps_in_demo_mode(provider, use_settings):
    assert provider.get(f"{PROVIDER}/garmin/authorize", params=authorize_query()).status_code == 404
    assert provider.get(f"{PROVIDER}/xert/authorize", params=authorize_query("xert")).status_code == 404
    use_settings(app_env="production")
    assert provider.get(f"{PROVIDER}/strava/authorize", params=authorize_query()).status_code == 404
    assert provider.post(f"{PROVIDER}/strava/token", data={"grant_type": "password"}).status_code == 404


def _code(provider) -> str:
    answer = provider.post(
        f"{PROVIDER}/strava/authorize",
        data={**authorize_query(), "decision": "allow"},
        follow_redirects=False,
    )
    return query_of(answer.headers["location"])["code"]


def test_provider_token_endpoint(provider):
    client_id, secret = oauth.demo_registration("strava")
    form = {"grant_type": "authorization_code", "redirect_uri": oauth.redirect_uri("strava")}

    wrong = provider.post(
        f"{PROVIDER}/strava/token",
        data={**form, "code": _code(provider), "client_id": client_id, "client_secret": "x"},
    )
    assert (wrong.status_code, wrong.json()) == (401, {"error": "invalid_client"})

    basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    token = provider.post(
        f"{PROVIDER}/strava/token",
        data={**form, "code": _code(provider)},
        headers={"Authorization": f"Basic {basic}"},
    )
    assert token.status_code == 200
    assert token.json()["token_type"] == "Bearer" and token.json()["expires_in"] > 0
    me = provider.get(
        f"{PROVIDER}/strava/me", headers={"Authorization": f"Bearer {token.json()['access_token']}"}
    )
    assert me.json()["name"] == "Demo Athlete"
    # The token opens Strava only.
    other = provider.get(
        f"{PROVIDER}/intervals/me", headers={"Authorization": f"Bearer {token.json()['access_token']}"}
    )
    assert other.status_code == 401

    for headers in (
        {"Authorization": "Basic !!!"},
        {"Authorization": "Basic " + base64.b64encode(b"\xff").decode()},
    ):
        assert provider.post(f"{PROVIDER}/strava/token", data=form, headers=headers).status_code == 401
    unsupported = provider.post(
        f"{PROVIDER}/strava/token",
        data={"grant_type": "password", "client_id": client_id, "client_secret": secret},
    )
    assert unsupported.json() == {"error": "unsupported_grant_type"}
    assert provider.get(f"{PROVIDER}/strava/me").status_code == 401


def test_installing_twice_serves_the_provider_once(provider):
    app = provider.app
    routes_before = len(app.routes)
    oauth_provider.install(app)
    assert len(app.routes) == routes_before
