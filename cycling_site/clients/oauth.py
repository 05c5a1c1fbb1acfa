"""OAuth 2 client of the fitness apps (spec 2 section 7): the authorization-code flow; Xert's password grant.

Built on httpx-oauth and configured per app from settings (OAUTH_<APP>_*). An app with no client id talks
to the embedded demo provider at SITE_URL/api/demo-oauth/<app> over the same wire contract; when the
process serving it has registered itself (serve_embedded_from), those requests stay in the process
(httpx ASGI transport) instead of going out over the network.
"""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from httpx_oauth.exceptions import HTTPXOAuthError
from httpx_oauth.oauth2 import BaseOAuth2, OAuth2RequestError, OAuth2Token
from starlette.types import ASGIApp

from cycling_site.settings import PASSWORD_GRANT_NETWORKS, settings
from cycling_site.wire.oauth import EMBEDDED_PREFIX, demo_registration, redirect_uri

TIMEOUT = httpx.Timeout(10.0)
EXTERNAL_USER_MAX = 200

_local_app: ASGIApp | None = None


class OAuthFailure(Exception):
    """The app refused, could not be reached, or answered something that is not a usable token."""


@dataclass(frozen=True)
class Endpoints:
    network: str
    client_id: str
    client_secret: str
    authorize_url: str
    token_url: str
    scope: str
    profile_url: str
    embedded: bool


@dataclass(frozen=True)
class LinkedAccount:
    """What a connection stores: whose account it is and the tokens to act for them."""

    external_user: str
    access_token: str
    refresh_token: str
    expires_at: datetime | None


def serve_embedded_from(app: ASGIApp) -> None:
    """Registers the app that serves the embedded provider, so requests to it stay in this process."""
    global _local_app
    _local_app = app


def endpoints(network: str) -> Endpoints:
    provider = settings.oauth[network]
    if provider.configured:
        return Endpoints(
            network=network,
            client_id=provider.client_id,
            client_secret=provider.client_secret,
            authorize_url=provider.authorize_url,
            token_url=provider.token_url,
            scope=provider.scope,
            profile_url=provider.profile_url,
            embedded=False,
        )
    base = f"{settings.site_url}{EMBEDDED_PREFIX}/{network}"
    client_id, client_secret = demo_registration(network)
    return Endpoints(
        network=network,
        client_id=client_id,
        client_secret=client_secret,
        authorize_url=f"{base}/authorize",
        token_url=f"{base}/token",
        scope="",
        profile_url=f"{base}/me",
        embedded=True,
    )


def _text(value: Any) -> str:
    return str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""


def external_user(*answers: dict) -> str:
    """A readable name for the connected account, from the profile or token answer (Strava's `athlete`,
    Whoop's first/last name, a plain username...), whichever names it first."""
    for answer in answers:
        for record in (answer.get("athlete"), answer.get("user"), answer):
            if not isinstance(record, dict):
                continue
            fields = {str(key).lower(): value for key, value in record.items()}
            full_name = " ".join(
                part
                for pair in (("firstname", "lastname"), ("first_name", "last_name"))
                for part in (_text(fields.get(pair[0])), _text(fields.get(pair[1])))
                if part
            )
            for candidate in (
                _text(fields.get("name")),
                full_name,
                _text(fields.get("username")),
                _text(fields.get("email")),
                _text(fields.get("id") or fields.get("user_id") or fields.get("athlete_id")),
            ):
                if candidate:
                    return candidate[:EXTERNAL_USER_MAX]
    return ""


class FitnessAppClient(BaseOAuth2[dict[str, Any]]):
    def __init__(self, config: Endpoints, transport: httpx.AsyncBaseTransport | None = None):
        auth_method = (
            "client_secret_basic" if config.network in PASSWORD_GRANT_NETWORKS else "client_secret_post"
        )
        super().__init__(
            config.client_id,
            config.client_secret,
            config.authorize_url,
            config.token_url,
            name=config.network,
            base_scopes=config.scope.split() or None,
            token_endpoint_auth_method=auth_method,
        )
        self.config = config
        self._transport = transport

    def get_httpx_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=self._transport, timeout=TIMEOUT)

    async def get_profile(self, token: str) -> dict[str, Any]:
        if not self.config.profile_url:
            return {}
        async with self.get_httpx_client() as client:
            headers = {**self.request_headers, "Authorization": f"Bearer {token}"}
            response = await self.send_request(
                client,
                client.build_request("GET", self.config.profile_url, headers=headers),
                None,
                exc_class=OAuth2RequestError,
            )
            profile = self.get_json(response, exc_class=OAuth2RequestError)
            return profile if isinstance(profile, dict) else {}

    async def password_token(self, username: str, password: str) -> OAuth2Token:
        """Xert: a token for the rider's own username and password (OAuth 2 password grant)."""
        async with self.get_httpx_client() as client:
            data = {"grant_type": "password", "username": username, "password": password}
            if self.base_scopes:
                data["scope"] = " ".join(self.base_scopes)
            request, auth = self.build_request(
                client,
                "POST",
                self.access_token_endpoint,
                auth_method=self.token_endpoint_auth_method,
                data=data,
            )
            response = await self.send_request(client, request, auth, exc_class=OAuth2RequestError)
            return OAuth2Token(self.get_json(response, exc_class=OAuth2RequestError))

    async def _linked(self, token: OAuth2Token, fallback_user: str = "") -> LinkedAccount:
        access_token = token.get("access_token")
        if not isinstance(access_token, str) or not access_token:
            raise OAuthFailure(f"{self.name}: the token answer has no access_token")
        profile = await self.get_profile(access_token)
        expires_at = token.get("expires_at")
        refresh_token = token.get("refresh_token")
        return LinkedAccount(
            external_user=external_user(profile, token) or fallback_user,
            access_token=access_token,
            refresh_token=refresh_token if isinstance(refresh_token, str) else "",
            expires_at=datetime.fromtimestamp(expires_at, UTC) if isinstance(expires_at, int) else None,
        )

    async def link_with_code(self, code: str) -> LinkedAccount:
        """Exchanges the callback's code for tokens and reads whose account they open."""
        try:
            token = await self.get_access_token(code, redirect_uri(self.config.network))
            return await self._linked(token)
        except (HTTPXOAuthError, httpx.HTTPError, ValueError, TypeError) as exc:
            raise OAuthFailure(f"{self.name}: {exc}") from exc

    async def link_with_password(self, username: str, password: str) -> LinkedAccount:
        try:
            token = await self.password_token(username, password)
            return await self._linked(token, fallback_user=username)
        except (HTTPXOAuthError, httpx.HTTPError, ValueError, TypeError) as exc:
            raise OAuthFailure(f"{self.name}: {exc}") from exc


def client_for(network: str) -> FitnessAppClient:
    config = endpoints(network)
    transport = httpx.ASGITransport(app=_local_app) if config.embedded and _local_app is not None else None
    return FitnessAppClient(config, transport)
