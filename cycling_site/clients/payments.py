"""Client of the card payment provider: Stripe's Checkout Sessions, with the official stripe package.

With PAYMENTS_API_BASE empty the embedded sandbox answers, over the same API: in this process (httpx
ASGI transport) once the app serving it has registered itself, otherwise at SITE_URL/payments-service.
With a real provider's base and keys the same calls go to it.
"""

from dataclasses import dataclass

import httpx
import stripe
from starlette.types import ASGIApp

from cycling_site.clients.pooled import PerLoop
from cycling_site.settings import settings
from cycling_site.wire.payments import EMBEDDED_PREFIX, ORDER_KEY

TIMEOUT_SECONDS = 20

_local_app: ASGIApp | None = None


class PaymentsUnavailable(Exception):
    """The provider could not be reached or refused the call."""


class InvalidWebhook(Exception):
    """A webhook that is not the provider's: unsigned, forged, too old or not an event."""


@dataclass(frozen=True)
class Checkout:
    """What the site needs of a checkout session."""

    id: str
    url: str
    status: str
    paid: bool
    amount: int
    currency: str
    order_id: str


def serve_embedded_from(app: ASGIApp) -> None:
    """Registers the app serving the sandbox, so calls to it stay in this process."""
    global _local_app
    _local_app = app


class _InProcessHTTPX(stripe.HTTPXClient):
    """The stripe package's httpx client, sending its requests to an app in this process."""

    def __init__(self, app: ASGIApp):
        super().__init__(timeout=TIMEOUT_SECONDS)
        self._client_async = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))


def _new_client() -> tuple[stripe.StripeClient, stripe.HTTPXClient]:
    if settings.payments_api_base:
        base, http = settings.payments_api_base, stripe.HTTPXClient(timeout=TIMEOUT_SECONDS)
    elif _local_app is not None:
        base, http = f"http://embedded{EMBEDDED_PREFIX}", _InProcessHTTPX(_local_app)
    else:
        base, http = settings.site_url + EMBEDDED_PREFIX, stripe.HTTPXClient(timeout=TIMEOUT_SECONDS)
    client = stripe.StripeClient(settings.payments_secret_key, base_addresses={"api": base}, http_client=http)
    return client, http


async def _close(made: tuple[stripe.StripeClient, stripe.HTTPXClient]) -> None:
    await made[1].close_async()


_pool = PerLoop(
    _new_client,
    _close,
    lambda: (settings.payments_api_base, settings.payments_secret_key, id(_local_app)),
)


def _client() -> stripe.StripeClient:
    return _pool.get()[0]


def _checkout(session: stripe.checkout.Session) -> Checkout:
    """A checkout session as the site reads it; a field the provider left out reads as empty."""
    metadata = getattr(session, "metadata", None)
    order_id = metadata.to_dict().get(ORDER_KEY, "") if metadata else ""
    return Checkout(
        id=str(getattr(session, "id", "") or ""),
        url=str(getattr(session, "url", "") or ""),
        status=str(getattr(session, "status", "") or ""),
        paid=getattr(session, "payment_status", "") == "paid",
        amount=int(getattr(session, "amount_total", 0) or 0),
        currency=str(getattr(session, "currency", "") or ""),
        order_id=str(order_id),
    )


async def create_checkout(
    order_id: str, name: str, amount: int, success_url: str, cancel_url: str, email: str
) -> Checkout:
    """A checkout session for one order, `amount` in fils (AED); its url is the provider's card page."""
    params = {
        "mode": "payment",
        "line_items": [
            {
                "quantity": 1,
                "price_data": {"currency": "aed", "unit_amount": amount, "product_data": {"name": name}},
            }
        ],
        "success_url": success_url,
        "cancel_url": cancel_url,
        "client_reference_id": order_id,
        "customer_email": email,
        "metadata": {ORDER_KEY: order_id},
    }
    try:
        created = await _client().v1.checkout.sessions.create_async(params, {"idempotency_key": order_id})
    except stripe.StripeError as exc:
        raise PaymentsUnavailable(str(exc)) from exc
    return _checkout(created)


async def retrieve_checkout(session_id: str) -> Checkout:
    """The session as the provider has it now: the one word on whether an order is paid."""
    try:
        return _checkout(await _client().v1.checkout.sessions.retrieve_async(session_id))
    except stripe.StripeError as exc:
        raise PaymentsUnavailable(str(exc)) from exc


def read_webhook(payload: bytes, signature: str) -> tuple[str, Checkout]:
    """A webhook's event type and checkout session, once its Stripe-Signature is verified (secret and a
    recent timestamp)."""
    try:
        event = stripe.Webhook.construct_event(payload, signature, settings.payments_webhook_secret)
    except (stripe.SignatureVerificationError, ValueError) as exc:
        raise InvalidWebhook(str(exc)) from exc
    session = getattr(getattr(event, "data", None), "object", None)
    if getattr(session, "object", "") != "checkout.session":
        raise InvalidWebhook("Not a checkout session event")
    try:
        return event.type, _checkout(session)
    except (TypeError, ValueError) as exc:
        raise InvalidWebhook(str(exc)) from exc
