"""The site started with APP_ENV=production: the demo stand-ins for outside services are not served, and a
start without a real payment provider stops with its reason."""

import httpx
import pytest

from cycling_site.settings import DEMO_PAYMENTS_KEY
from scripts.bench.site_runner import start_site
from tests.unit.test_settings import PRODUCTION

SANDBOX_CHECKOUT = "/payments-service/v1/checkout/sessions"
CHECKOUT_FORM = {
    "mode": "payment",
    "line_items[0][quantity]": "1",
    "line_items[0][price_data][currency]": "aed",
    "line_items[0][price_data][unit_amount]": "1000",
    "line_items[0][price_data][product_data][name]": "1,200 gems",
    "success_url": "http://127.0.0.1/ok",
    "cancel_url": "http://127.0.0.1/no",
}


@pytest.fixture(scope="module")
def production_site():
    url, stop = start_site(PRODUCTION, backend_only=True)
    yield url
    stop()


def test_production_serves_no_payment_sandbox_and_no_demo_provider(production_site):
    # A connection each: a server may close a connection after refusing a request whose body it did not
    # read, and a request sent on it meanwhile fails with no answer.
    no_reuse = httpx.Limits(max_keepalive_connections=0)
    with httpx.Client(base_url=production_site, timeout=10, limits=no_reuse) as client:
        assert client.get("/api/events").status_code == 200
        for key in (DEMO_PAYMENTS_KEY, PRODUCTION["PAYMENTS_SECRET_KEY"]):
            made = client.post(
                SANDBOX_CHECKOUT, data=CHECKOUT_FORM, headers={"Authorization": f"Bearer {key}"}
            )
            assert made.status_code == 404
        assert client.get("/payments-service/pay/cs_test_anything").status_code == 404
        assert client.get("/api/demo-oauth/strava/authorize").status_code == 404


def test_a_production_start_without_a_real_payment_provider_stops_with_its_reason():
    with pytest.raises(RuntimeError, match="Set PAYMENTS_API_BASE to your payment provider's API"):
        start_site({**PRODUCTION, "PAYMENTS_API_BASE": ""}, backend_only=True)
