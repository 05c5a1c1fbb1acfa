"""Fixtures for the fitness-app connections: the demo provider in the process, and settings overrides."""

import dataclasses
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cycling_site.clients import oauth
from cycling_site.embedded.oauth_provider import service as oauth_provider
from cycling_site.services import connections
from cycling_site.settings import OAuthProvider

SETTINGS_USERS = (oauth, oauth_provider, connections)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def provider(monkeypatch) -> Iterator[TestClient]:
    """The demo provider on an app of its own, registered as the client's in-process target."""
    monkeypatch.setattr(oauth, "_local_app", None)
    app = FastAPI()
    oauth_provider.install(app)
    oauth.serve_embedded_from(app)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def use_settings(monkeypatch) -> Callable[..., None]:
    """Replaces settings fields (and OAuth registrations by app) for the modules that read them."""

    def use(oauth_registrations: dict[str, OAuthProvider] | None = None, **changes) -> None:
        current = oauth.settings
        if oauth_registrations:
            changes["oauth"] = {**current.oauth, **oauth_registrations}
        replaced = dataclasses.replace(current, **changes)
        for module in SETTINGS_USERS:
            monkeypatch.setattr(module, "settings", replaced)

    return use


def registration(**values: str) -> OAuthProvider:
    fields = {
        name: ""
        for name in ("client_id", "client_secret", "authorize_url", "token_url", "scope", "profile_url")
    }
    return OAuthProvider(**{**fields, **values})


def query_of(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


def consent(client: TestClient, authorization_url: str, decision: str = "allow") -> dict[str, str]:
    """Opens the demo provider's authorize page, answers it, and returns the callback's query."""
    parts = urlsplit(authorization_url)
    page = client.get(f"{parts.path}?{parts.query}")
    assert page.status_code == 200, page.text
    answer = client.post(
        parts.path, data={**query_of(authorization_url), "decision": decision}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    assert location.startswith(oauth.redirect_uri(parts.path.split("/")[3]))
    return query_of(location)
