"""The payment sandbox's API, card page and webhooks (served under /payments-service).

API (Stripe's shapes, form-encoded requests, Bearer secret key): POST /v1/checkout/sessions,
GET /v1/checkout/sessions/{id}, POST /v1/checkout/sessions/{id}/expire. The session's url is the card
page, /pay/{id}. Stripe's test cards: 4242 4242 4242 4242 pays at once, 4000 0000 0000 0002 is declined,
4000 0000 0000 3220 pays after PAYMENTS_SLOW_CARD_SECONDS; any other card is declined, as in test mode.
Each payment and expiry is told to the site by a webhook signed like Stripe's (Stripe-Signature,
HMAC-SHA256 of "timestamp.payload" with the endpoint's secret).
"""

import asyncio
import hashlib
import hmac
import html
import json
import secrets
import time
from datetime import UTC, datetime, timedelta
from typing import Annotated

import httpx
from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlmodel import Session, select
from starlette.datastructures import FormData
from starlette.types import ASGIApp

from cycling_site.db import in_session, off_loop, session_per_request
from cycling_site.embedded.payments.models import SandboxCheckout
from cycling_site.models.common import as_utc, utcnow
from cycling_site.settings import settings
from cycling_site.wire.payments import EMBEDDED_PREFIX, WEBHOOK_PATH

DB = Annotated[Session, Depends(session_per_request)]
router = APIRouter(prefix=EMBEDDED_PREFIX, include_in_schema=False)

PAYS_NOW = "4242424242424242"
DECLINED = "4000000000000002"
PAYS_LATER = "4000000000003220"
DECLINED_TEXT = "Your card was declined."
TEST_MODE_TEXT = (
    "Your card was declined. This is a test checkout: use a test card, such as 4242 4242 4242 4242."
)
WEBHOOK_ATTEMPTS = 3
FIELD_MAX = 2000
API_VERSION = "2026-10-28.endive"

# The app webhooks go to (the site, in this process), and the tasks of delayed payments.
_webhook_app: ASGIApp | None = None
_pending: set[asyncio.Task] = set()


def _stripe_error(status_code: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status_code)


def _authorised(authorization: str) -> bool:
    scheme, _, key = authorization.partition(" ")
    return scheme.lower() == "bearer" and secrets.compare_digest(
        key.strip().encode(), settings.payments_secret_key.encode()
    )


def _as_stripe(checkout: SandboxCheckout) -> dict:
    return {
        "id": checkout.id,
        "object": "checkout.session",
        "amount_total": checkout.amount_total,
        "amount_subtotal": checkout.amount_total,
        "currency": checkout.currency,
        "mode": "payment",
        "status": checkout.status,
        "payment_status": checkout.payment_status,
        "url": f"{settings.site_url}{EMBEDDED_PREFIX}/pay/{checkout.id}"
        if checkout.status == "open"
        else None,
        "success_url": checkout.success_url,
        "cancel_url": checkout.cancel_url,
        "client_reference_id": checkout.client_reference_id,
        "customer_email": checkout.customer_email,
        "metadata": checkout.metadata_,
        "livemode": False,
        "created": int(as_utc(checkout.created_at).timestamp()),
    }


def _settle_if_due(session: Session, checkout: SandboxCheckout) -> bool:
    """A slow payment whose time has come is paid now (also when its delivery task never ran)."""
    due = checkout.pay_after is not None and as_utc(checkout.pay_after) <= utcnow()
    if checkout.status != "open" or not due:
        return False
    checkout.status, checkout.payment_status, checkout.paid_at = "complete", "paid", utcnow()
    session.add(checkout)
    session.commit()
    return True


# --- Webhooks -----------------------------------------------------------------------------------------


def signature_header(payload: bytes, secret: str, timestamp: int | None = None) -> str:
    """Stripe-Signature for a payload: t=<unix time>,v1=<HMAC-SHA256 of "t.payload">."""
    moment = int(time.time()) if timestamp is None else timestamp
    signed = hmac.new(secret.encode(), f"{moment}.".encode() + payload, hashlib.sha256).hexdigest()
    return f"t={moment},v1={signed}"


def event_payload(kind: str, checkout: dict) -> bytes:
    event = {
        "id": f"evt_{secrets.token_hex(12)}",
        "object": "event",
        "api_version": API_VERSION,
        "created": int(time.time()),
        "livemode": False,
        "type": kind,
        "data": {"object": checkout},
    }
    return json.dumps(event).encode()


async def _deliver(kind: str, checkout: dict) -> None:
    """Posts a signed event to the site's webhook endpoint, trying again a few times."""
    app = _webhook_app
    payload = event_payload(kind, checkout)
    headers = {"Stripe-Signature": signature_header(payload, settings.payments_webhook_secret)}
    headers["Content-Type"] = "application/json"
    transport = httpx.ASGITransport(app=app) if app is not None else None
    base = "http://embedded" if app is not None else settings.site_url
    async with httpx.AsyncClient(transport=transport, base_url=base, timeout=20) as client:
        for attempt in range(WEBHOOK_ATTEMPTS):
            try:
                answer = await client.post(WEBHOOK_PATH, content=payload, headers=headers)
            except httpx.HTTPError:
                answer = None
            if answer is not None and answer.status_code < 300:
                return
            await asyncio.sleep(0.5 * 2**attempt)


async def _pay_later(checkout_id: str, delay: float) -> None:
    await asyncio.sleep(delay)
    paid = await in_session(_settled, checkout_id)
    if paid is not None:
        await _deliver("checkout.session.completed", paid)


def _settled(session: Session, checkout_id: str) -> dict | None:
    """The checkout as the provider shows it, if this call settled it."""
    checkout = session.get(SandboxCheckout, checkout_id)
    if checkout is None or not _settle_if_due(session, checkout):
        return None
    return _as_stripe(checkout)


# --- The API ------------------------------------------------------------------------------------------


@router.post("/v1/checkout/sessions")
async def create_session(
    request: Request,
    session: DB,
    authorization: Annotated[str, Header()] = "",
    idempotency_key: Annotated[str, Header()] = "",
) -> JSONResponse:
    if not _authorised(authorization):
        return _stripe_error(401, "Invalid API Key provided.", "authentication_error")
    return await off_loop(_create_session, session, await request.form(), idempotency_key)


def _create_session(session: Session, form: FormData, idempotency_key: str) -> JSONResponse:
    if idempotency_key:
        earlier = session.exec(
            select(SandboxCheckout).where(SandboxCheckout.idempotency_key == idempotency_key[:255])
        ).first()
        if earlier is not None:
            return JSONResponse(_as_stripe(earlier))
    price = "line_items[0][price_data]"
    try:
        amount = int(str(form.get(f"{price}[unit_amount]", "")))
    except ValueError:
        return _stripe_error(400, "line_items[0][price_data][unit_amount] must be a whole number.")
    fields = {name: str(form.get(name, ""))[:FIELD_MAX] for name in ("success_url", "cancel_url")}
    if (
        amount <= 0
        or not fields["success_url"].startswith("http")
        or not fields["cancel_url"].startswith("http")
    ):
        return _stripe_error(400, "An amount, a success_url and a cancel_url are required.")
    metadata = {
        key[len("metadata[") : -1]: str(value)[:500]
        for key, value in form.items()
        if key.startswith("metadata[") and key.endswith("]")
    }
    checkout = SandboxCheckout(
        id=f"cs_test_{secrets.token_urlsafe(24)}",
        idempotency_key=idempotency_key[:255] or None,
        amount_total=amount,
        currency=str(form.get(f"{price}[currency]", "aed"))[:3].lower(),
        product_name=str(form.get(f"{price}[product_data][name]", ""))[:200],
        client_reference_id=str(form.get("client_reference_id", ""))[:200],
        customer_email=str(form.get("customer_email", ""))[:254],
        metadata_=metadata,
        **fields,
    )
    session.add(checkout)
    session.commit()
    return JSONResponse(_as_stripe(checkout))


def _checkout_for(session: Session, checkout_id: str, authorization: str) -> SandboxCheckout | JSONResponse:
    """The checkout an API call names, or the provider's error answer (bad key, no such session)."""
    if not _authorised(authorization):
        return _stripe_error(401, "Invalid API Key provided.", "authentication_error")
    checkout = session.get(SandboxCheckout, checkout_id[:80])
    if checkout is None:
        return _stripe_error(404, f"No such checkout.session: '{checkout_id[:80]}'")
    return checkout


@router.get("/v1/checkout/sessions/{checkout_id}")
def retrieve_session(
    checkout_id: str, session: DB, authorization: Annotated[str, Header()] = ""
) -> JSONResponse:
    checkout = _checkout_for(session, checkout_id, authorization)
    if isinstance(checkout, JSONResponse):
        return checkout
    _settle_if_due(session, checkout)
    return JSONResponse(_as_stripe(checkout))


@router.post("/v1/checkout/sessions/{checkout_id}/expire")
async def expire_session(
    checkout_id: str, session: DB, authorization: Annotated[str, Header()] = ""
) -> JSONResponse:
    checkout = await off_loop(_expire, session, checkout_id, authorization)
    if isinstance(checkout, JSONResponse):
        return checkout
    expired = _as_stripe(checkout)
    await _deliver("checkout.session.expired", expired)
    return JSONResponse(expired)


def _expire(session: Session, checkout_id: str, authorization: str) -> SandboxCheckout | JSONResponse:
    checkout = _checkout_for(session, checkout_id, authorization)
    if isinstance(checkout, JSONResponse):
        return checkout
    if checkout.status != "open":
        return _stripe_error(400, "Only open checkout sessions can be expired.")
    checkout.status = "expired"
    _save(session, checkout)
    return checkout


def _save(session: Session, checkout: SandboxCheckout) -> None:
    session.add(checkout)
    session.commit()


# --- The card page ------------------------------------------------------------------------------------

_STYLE = {
    "body": "margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;"
    "box-sizing:border-box;background:#EEF1F6;color:#1A1F36;"
    "font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif",
    "main": "background:#fff;border-radius:12px;box-shadow:0 8px 30px rgba(26,31,54,.12);padding:28px 24px;"
    "max-width:420px;width:100%;box-sizing:border-box",
    ".badge": "display:inline-block;background:#635BFF;color:#fff;border-radius:999px;padding:3px 10px;"
    "font-size:12px;letter-spacing:.06em;text-transform:uppercase",
    "h1": "font-size:20px;margin:14px 0 4px",
    ".amount": "font-size:30px;font-weight:700;margin:0 0 20px",
    "label": "display:block;font-size:13px;font-weight:600;margin:12px 0 6px",
    "input": "width:100%;box-sizing:border-box;height:44px;border:1px solid #C9CED8;border-radius:6px;"
    "padding:0 12px;font-size:16px",
    ".row": "display:flex;gap:12px",
    ".row>div": "flex:1",
    "button": "margin-top:20px;width:100%;height:46px;border:0;border-radius:6px;background:#635BFF;"
    "color:#fff;font-size:16px;font-weight:700;cursor:pointer",
    ":focus-visible": "outline:3px solid #A5A1FF;outline-offset:2px",
    ".error": "background:#FDECEA;color:#9B1C1C;border-radius:6px;padding:10px 12px;margin:0 0 8px",
    ".note": "color:#5A6275;font-size:13px;margin:14px 0 0",
    "a": "color:#4B45D6",
}
STYLE_SHEET = "".join(f"{selector}{{{rules}}}" for selector, rules in _STYLE.items())


def _page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    document = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE_SHEET}</style></head><body><main>{body}</main></body></html>"
    )
    return HTMLResponse(document, status_code=status_code, headers={"cache-control": "no-store"})


def _money(checkout: SandboxCheckout) -> str:
    return f"{checkout.currency.upper()} {checkout.amount_total / 100:,.2f}"


def _card_page(checkout: SandboxCheckout, error: str = "", status_code: int = 200) -> HTMLResponse:
    alert = f'<p class="error" role="alert" id="card-error">{html.escape(error)}</p>' if error else ""
    body = (
        '<span class="badge">Test mode</span>'
        f'<h1 id="checkout-product">{html.escape(checkout.product_name or "Payment")}</h1>'
        f'<p class="amount" id="checkout-amount">{html.escape(_money(checkout))}</p>{alert}'
        f'<form method="post" action="{EMBEDDED_PREFIX}/pay/{html.escape(checkout.id)}">'
        '<label for="card-number">Card number</label>'
        '<input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required '
        'placeholder="4242 4242 4242 4242">'
        '<div class="row"><div><label for="card-expiry">Expiry (MM/YY)</label>'
        '<input id="card-expiry" name="expiry" autocomplete="cc-exp" required placeholder="12/34"></div>'
        '<div><label for="card-cvc">CVC</label><input id="card-cvc" name="cvc" inputmode="numeric" '
        'autocomplete="cc-csc" required placeholder="123"></div></div>'
        '<label for="card-name">Name on card</label>'
        '<input id="card-name" name="name" autocomplete="cc-name">'
        f'<button type="submit" id="card-pay">Pay {html.escape(_money(checkout))}</button></form>'
        f'<p class="note"><a id="checkout-cancel" href="{html.escape(checkout.cancel_url)}">'
        "Cancel and go back</a></p>"
    )
    return _page("Pay", body, status_code)


def _closed_page(checkout: SandboxCheckout) -> HTMLResponse:
    back = (
        checkout.success_url if checkout.status == "complete" or checkout.pay_after else checkout.cancel_url
    )
    body = (
        '<span class="badge">Test mode</span><h1>This checkout is no longer open</h1>'
        f'<p class="note"><a href="{html.escape(back)}">Go back</a></p>'
    )
    return _page("Checkout closed", body, 410)


def _card_refusal(number: str, expiry: str, cvc: str) -> str:
    """What the page says before any payment: a malformed card is refused as a card form would."""
    if not number.isdigit() or not 13 <= len(number) <= 19:
        return "Your card number is incomplete."
    month, _, year = expiry.partition("/")
    if not (month.strip().isdigit() and year.strip().isdigit() and 1 <= int(month) <= 12):
        return "Your card's expiry date is incomplete."
    expires = datetime(2000 + int(year) % 100, int(month), 1, tzinfo=UTC) + timedelta(days=31)
    if expires < datetime.now(UTC):
        return "Your card's expiry year is in the past."
    if not cvc.isdigit() or len(cvc) not in (3, 4):
        return "Your card's security code is incomplete."
    return ""


@router.get("/pay/{checkout_id}")
def card_page(checkout_id: str, session: DB) -> Response:
    checkout = session.get(SandboxCheckout, checkout_id[:80])
    if checkout is None:
        return _page("Not found", "<h1>No such checkout</h1>", 404)
    if checkout.status != "open" or checkout.pay_after is not None:
        return _closed_page(checkout)
    return _card_page(checkout)


@router.post("/pay/{checkout_id}")
async def pay(checkout_id: str, request: Request, session: DB) -> Response:
    checkout = await off_loop(session.get, SandboxCheckout, checkout_id[:80])
    if checkout is None:
        return _page("Not found", "<h1>No such checkout</h1>", 404)
    if checkout.status != "open" or checkout.pay_after is not None:
        return _closed_page(checkout)
    form = await request.form()
    number = "".join(str(form.get("number", ""))[:40].split())
    refusal = _card_refusal(number, str(form.get("expiry", ""))[:10], str(form.get("cvc", "")).strip()[:10])
    if refusal:
        return _card_page(checkout, refusal, 400)
    if number == PAYS_LATER:
        checkout.pay_after = utcnow() + timedelta(seconds=settings.payments_slow_card_seconds)
        await off_loop(_save, session, checkout)
        task = asyncio.create_task(_pay_later(checkout.id, settings.payments_slow_card_seconds))
        _pending.add(task)
        task.add_done_callback(_pending.discard)
        return RedirectResponse(checkout.success_url, status_code=303)
    if number != PAYS_NOW:
        return _card_page(checkout, DECLINED_TEXT if number == DECLINED else TEST_MODE_TEXT, 402)
    checkout.status, checkout.payment_status, checkout.paid_at = "complete", "paid", utcnow()
    await off_loop(_save, session, checkout)
    await _deliver("checkout.session.completed", _as_stripe(checkout))
    return RedirectResponse(checkout.success_url, status_code=303)


def install(app: FastAPI, webhooks_to: ASGIApp | None = None) -> None:
    """Serves the sandbox from `app`; its webhooks go to `webhooks_to` (the app serving the site's API) in
    this process, or else to SITE_URL, like the endpoint configured for a Stripe account."""
    global _webhook_app
    if not getattr(app.state, "payments_sandbox", False):
        app.include_router(router)
        app.state.payments_sandbox = True
    _webhook_app = webhooks_to
