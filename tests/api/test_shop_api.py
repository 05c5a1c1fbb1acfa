"""The shop's REST API as a game client uses it, card payments through the sandbox and its webhooks."""

import dataclasses
import json
import time
import uuid

import pytest
from sqlmodel import select

from cycling_site.api.main import api
from cycling_site.clients import payments
from cycling_site.embedded.payments import service as payments_sandbox
from cycling_site.messages import shop as msg
from cycling_site.models import Currency, GemOrder, LedgerEntry, OrderStatus
from cycling_site.services import ledger
from cycling_site.services.ledger import Move
from cycling_site.settings import settings
from cycling_site.wire.payments import WEBHOOK_PATH
from tests.api.auth_support import bearer
from tests.unit.conftest import count, reload

SHOP = "/api/shop"
PAY_NOW, DECLINED, PAY_LATER = "4242 4242 4242 4242", "4000 0000 0000 0002", "4000 0000 0000 3220"


@pytest.fixture(autouse=True)
def sandbox():
    payments_sandbox.install(api, webhooks_to=api)
    payments.serve_embedded_from(api)


@pytest.fixture
def rider(make_account):
    return make_account(level=18)


def fund(session, account, currency: Currency, amount: int) -> None:
    ledger.move(session, Move(account.id, currency, amount, "test", "", uuid.uuid4().hex))
    session.commit()


def gems(session, account) -> int:
    session.expire_all()
    return ledger.balance(session, account.id, Currency.gem)


def _checkout(client, rider, package: str = "gems-100") -> tuple[str, str]:
    answer = client.post(f"{SHOP}/checkout", json={"package_id": package}, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    return data["order_id"], data["session_url"]


def _pay(client, session_url: str, number: str, expiry: str = "12/39"):
    """The rider on the provider's card page: the form, as the browser posts it."""
    path = session_url.removeprefix(settings.site_url)
    page = client.get(path)
    assert page.status_code == 200 and 'id="card-pay"' in page.text
    return client.post(path, data={"number": number, "expiry": expiry, "cvc": "123"}, follow_redirects=False)


def test_the_catalogue_and_balances_for_a_signed_in_rider(client, rider, session):
    fund(session, rider, Currency.coin, 1234)
    data = client.get(f"{SHOP}/items", headers=bearer(rider)).json()["data"]
    assert (data["coins"], data["gems"]) == (1234, 0)
    falcon = next(item for item in data["items"] if item["Id"] == "frame-falcon-aero")
    assert falcon == {
        "Id": "frame-falcon-aero",
        "Name": "Falcon Aero R1",
        "Type": 0,
        "thumbnail": "/shop/frame-falcon-aero.svg",
        "Description": falcon["Description"],
        "UnlockValue": 2400,
        "Aerodynamics": 82,
        "Weight": 70,
        "BikeType": "road",
        "UnlockingType": "base",
        "UnlockingLevel": 0,
        "owned": False,
        "locked": "",
    }
    bundles = client.get(f"{SHOP}/bundles", headers=bearer(rider)).json()["data"]
    assert bundles["coins"][0] == {"Identifier": "coins-1000", "Reward": 1000, "Price": 50}
    assert bundles["gems"][0] == {"Identifier": "gems-100", "Reward": 100, "Price": 1900}


def test_buying_an_item_and_a_coin_bundle(client, rider, session):
    fund(session, rider, Currency.gem, 60)
    headers = bearer(rider)
    check = client.post(
        f"{SHOP}/check", json={"item_id": "socks-striped", "item_price": 150}, headers=headers
    )
    assert check.json()["data"] == {"user_gems": 60, "user_coins": 0, "error": msg.NOT_ENOUGH_COINS}
    coins = client.post(f"{SHOP}/coins", json={"package_id": "coins-1000"}, headers=headers)
    assert coins.json() == {"status": True, "message": "1,000 coins added.", "data": {"reward": 1000}}
    bought = client.post(f"{SHOP}/purchase", json={"item_id": "socks-striped", "Type": 5}, headers=headers)
    assert bought.json() == {"status": True, "message": msg.PURCHASE_SUCCESS}
    again = client.post(f"{SHOP}/purchase", json={"item_id": "socks-striped", "Type": 5}, headers=headers)
    assert (again.status_code, again.json()["message"]) == (400, msg.ALREADY_OWNED)
    session.expire_all()
    assert ledger.balances(session, rider.id)[Currency.coin] == 850


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("purchase", {"item_id": "socks-striped", "price": 1}),
        ("purchase", {"item_id": "socks-striped", "currency": "GEM"}),
        ("coins", {"package_id": "coins-1000", "quantity": -5}),
        ("coins", {"package_id": "coins-1000", "reward": 999_999}),
        ("checkout", {"package_id": "gems-100", "amount": 1}),
        ("check", {"item_id": "socks-striped", "item_price": -1}),
        ("check", {"item_id": "socks-striped", "item_price": 10**12}),
        ("purchase", {"item_id": "x" * 61}),
    ],
)
def test_prices_currencies_and_quantities_in_a_request_are_refused(client, rider, session, path, body):
    fund(session, rider, Currency.gem, 1000)
    fund(session, rider, Currency.coin, 1000)
    answer = client.post(f"{SHOP}/{path}", json=body, headers=bearer(rider))
    assert answer.status_code == 400
    assert answer.json()["status"] is False
    session.expire_all()
    assert ledger.balances(session, rider.id) == {Currency.coin: 1000, Currency.gem: 1000, Currency.btc: 0}
    assert count(session, GemOrder) == 0


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("purchase", {"item_id": "no-such-item"}, 404, msg.UNKNOWN_ITEM),
        ("coins", {"package_id": "gems-100"}, 400, msg.UNKNOWN_BUNDLE),
        ("checkout", {"package_id": "coins-1000"}, 400, msg.UNKNOWN_BUNDLE),
        ("payment", {"order_id": str(uuid.uuid4())}, 404, msg.UNKNOWN_ORDER),
    ],
)
def test_unknown_items_bundles_and_orders(client, rider, path, body, status, message):
    answer = client.post(f"{SHOP}/{path}", json=body, headers=bearer(rider))
    assert (answer.status_code, answer.json()["message"]) == (status, message)


def test_kids_are_refused_by_every_shop_call(client, make_account):
    kid = make_account(email="kid@example.com", is_kid=True, parent_approved=True)
    headers = bearer(kid)
    calls = [
        client.get(f"{SHOP}/items", headers=headers),
        client.get(f"{SHOP}/bundles", headers=headers),
        client.post(f"{SHOP}/check", json={"item_id": "socks-striped"}, headers=headers),
        client.post(f"{SHOP}/purchase", json={"item_id": "socks-striped"}, headers=headers),
        client.post(f"{SHOP}/coins", json={"package_id": "coins-1000"}, headers=headers),
        client.post(f"{SHOP}/checkout", json={"package_id": "gems-100"}, headers=headers),
        client.post(f"{SHOP}/payment", json={"order_id": str(uuid.uuid4())}, headers=headers),
    ]
    assert [(answer.status_code, answer.json()["message"]) for answer in calls] == [
        (403, msg.KIDS_NO_SHOP)
    ] * 7


def test_a_visitor_is_asked_to_sign_in(client):
    assert client.get(f"{SHOP}/items").status_code == 401


# --- Card payments through the sandbox --------------------------------------------------------------------


def test_the_success_card_pays_and_the_webhook_credits_the_gems(client, rider, session):
    order_id, url = _checkout(client, rider)
    paid = _pay(client, url, PAY_NOW)
    assert paid.status_code == 303
    assert paid.headers["location"] == (
        f"{settings.site_url}/user/activities?payment_result=success&orderId={order_id}#in-game-shop"
    )
    assert gems(session, rider) == 100, "credited by the webhook before the rider is back"
    poll = client.post(f"{SHOP}/payment", json={"order_id": order_id}, headers=bearer(rider))
    assert poll.json()["data"] == {"reward": 100, "status": "paid"}
    assert gems(session, rider) == 100
    assert client.get(url.removeprefix(settings.site_url)).status_code == 410, "a paid checkout is closed"


def test_the_declined_card_pays_nothing_and_the_rider_can_go_back(client, rider, session):
    order_id, url = _checkout(client, rider)
    declined = _pay(client, url, DECLINED)
    assert declined.status_code == 402
    assert payments_sandbox.DECLINED_TEXT in declined.text
    assert f"payment_result=error&amp;orderId={order_id}" in declined.text
    poll = client.post(f"{SHOP}/payment", json={"order_id": order_id}, headers=bearer(rider))
    assert poll.json()["data"] == {"reward": 0, "status": "open"}
    assert gems(session, rider) == 0


@pytest.mark.parametrize(
    ("number", "expiry", "message"),
    [("4242", "12/39", "incomplete"), (PAY_NOW, "13/39", "expiry"), (PAY_NOW, "01/20", "past")],
)
def test_the_card_page_checks_the_card_first(client, rider, session, number, expiry, message):
    _order_id, url = _checkout(client, rider)
    refused = _pay(client, url, number, expiry)
    assert refused.status_code == 400 and message in refused.text
    assert gems(session, rider) == 0


def test_the_slow_card_is_paid_after_its_delay_and_polling_finds_it(client, rider, session, monkeypatch):
    monkeypatch.setattr(
        payments_sandbox, "settings", dataclasses.replace(settings, payments_slow_card_seconds=0)
    )
    order_id, url = _checkout(client, rider)
    assert _pay(client, url, PAY_LATER).status_code == 303
    poll = client.post(f"{SHOP}/payment", json={"order_id": order_id}, headers=bearer(rider))
    assert poll.json()["data"] == {"reward": 100, "status": "paid"}
    assert gems(session, rider) == 100


def _event(
    order_id: str, session_id: str, amount: int = 1900, kind: str = "checkout.session.completed"
) -> bytes:
    checkout = {
        "id": session_id,
        "object": "checkout.session",
        "amount_total": amount,
        "currency": "aed",
        "status": "complete",
        "payment_status": "paid",
        "metadata": {"order_id": order_id},
    }
    return payments_sandbox.event_payload(kind, checkout)


def _deliver(client, payload: bytes, signature: str):
    return client.post(WEBHOOK_PATH, content=payload, headers={"Stripe-Signature": signature})


def _session_id(session, order_id: str) -> str:
    session.expire_all()
    return session.get(GemOrder, order_id).provider_session_id


def test_a_replayed_or_duplicated_webhook_credits_once(client, rider, session):
    order_id, _url = _checkout(client, rider)
    payload = _event(order_id, _session_id(session, order_id))
    signature = payments_sandbox.signature_header(payload, settings.payments_webhook_secret)
    for _ in range(3):
        assert _deliver(client, payload, signature).json() == {
            "status": True,
            "message": msg.WEBHOOK_RECEIVED,
        }
    again = _event(order_id, _session_id(session, order_id))
    _deliver(client, again, payments_sandbox.signature_header(again, settings.payments_webhook_secret))
    assert gems(session, rider) == 100
    assert len(session.exec(select(LedgerEntry)).all()) == 1


def test_an_expiry_after_payment_changes_nothing(client, rider, session):
    order_id, _url = _checkout(client, rider)
    session_id = _session_id(session, order_id)
    for kind in ("checkout.session.completed", "checkout.session.expired"):
        payload = _event(order_id, session_id, kind=kind)
        _deliver(
            client, payload, payments_sandbox.signature_header(payload, settings.payments_webhook_secret)
        )
    session.expire_all()
    assert session.get(GemOrder, order_id).status == OrderStatus.paid
    assert gems(session, rider) == 100


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda payload: "", id="unsigned"),
        pytest.param(
            lambda payload: payments_sandbox.signature_header(payload, "whsec_not_ours"), id="forged"
        ),
        pytest.param(
            lambda payload: payments_sandbox.signature_header(
                payload, settings.payments_webhook_secret, int(time.time()) - 3600
            ),
            id="an hour old",
        ),
        pytest.param(lambda payload: "t=1,v1=deadbeef", id="malformed"),
    ],
)
def test_a_webhook_not_signed_by_the_provider_is_refused(client, rider, session, forge):
    order_id, _url = _checkout(client, rider)
    payload = _event(order_id, _session_id(session, order_id))
    refused = _deliver(client, payload, forge(payload))
    assert refused.status_code == 400
    assert refused.json() == {"status": False, "message": msg.WEBHOOK_REFUSED}
    assert gems(session, rider) == 0
    assert reload(session, rider).id == rider.id


def test_a_signed_webhook_for_another_amount_or_session_credits_nothing(client, rider, session):
    order_id, _url = _checkout(client, rider)
    for payload in (
        _event(order_id, _session_id(session, order_id), amount=1),
        _event(order_id, "cs_test_other"),
    ):
        signature = payments_sandbox.signature_header(payload, settings.payments_webhook_secret)
        assert _deliver(client, payload, signature).status_code == 200
    assert gems(session, rider) == 0


def test_a_webhook_that_is_not_json_is_refused(client):
    payload = b"not json at all"
    signature = payments_sandbox.signature_header(payload, settings.payments_webhook_secret)
    assert _deliver(client, payload, signature).status_code == 400
    assert json.loads(_deliver(client, b"{}", "").text)["status"] is False


def test_another_riders_order_cannot_be_polled(client, rider, make_account):
    order_id, _url = _checkout(client, rider)
    other = make_account(email="other@example.com")
    answer = client.post(f"{SHOP}/payment", json={"order_id": order_id}, headers=bearer(other))
    assert (answer.status_code, answer.json()["message"]) == (404, msg.UNKNOWN_ORDER)
