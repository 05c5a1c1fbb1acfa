"""The shop in Chromium and over the REST API: the In Game Shop tab with the full catalogue, from the
click on the tab until the first sub-tab's product cards and the balances are drawn; a coin purchase round
trip in the payment modal (click on Buy until Congratulations!) and as a game client makes it
(POST /api/shop/coins).

Run against a running site and its database (the script gives the demo rider the gems it spends):
    BASE_URL=http://localhost:3000 DB_URL=sqlite:///data/cycling_site.db \
        .venv/bin/python scripts/bench/shop.py
Each tab run is a full page load (a new document) followed by the click; budgets: tab 500 ms, purchase 150 ms.
"""

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import httpx
from login_roundtrip import BASE_URL, CHROMIUM_ARGS, ready_to_sign_in, wait_shown
from playwright.sync_api import sync_playwright
from sqlmodel import select

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cycling_site.db import get_session  # noqa: E402
from cycling_site.models import Account, Currency  # noqa: E402
from cycling_site.seed import DEMO_SHOPPER  # noqa: E402
from cycling_site.services import ledger, tokens  # noqa: E402
from cycling_site.services.ledger import Move  # noqa: E402
from cycling_site.services.shop_catalogue import COIN_BUNDLES, ITEMS, TABS  # noqa: E402

RUNS = int(os.environ.get("RUNS", "20"))
TAB_BUDGET_MS = 500
PURCHASE_BUDGET_MS = 150
BUNDLE = COIN_BUNDLES[0]
FIRST_TYPE = TABS[0][1][0][0]


def give_gems() -> None:
    """Enough gems for every purchase the script makes, in the browser and over the API."""
    with get_session() as session:
        rider = session.exec(select(Account).where(Account.email == DEMO_SHOPPER)).one()
        gems = 2 * RUNS * BUNDLE.price
        ledger.move(session, Move(rider.id, Currency.gem, gems, "benchmark", "", uuid.uuid4().hex))
        session.commit()


def game_client_token() -> str:
    """A session token for the demo rider, as POST /api/auth/login gives a game client (which passes the
    human check in its own sign-in screen)."""
    with get_session() as session:
        rider = session.exec(select(Account).where(Account.email == DEMO_SHOPPER)).one()
        return tokens.issue_session_token(rider, True).token


def summary(name: str, timings: list[float], budget: float) -> str:
    timings = sorted(timings)
    p95 = timings[max(0, round(0.95 * len(timings)) - 1)]
    median = statistics.median(timings)
    verdict = "within" if median < budget else "OVER"
    return (
        f"{name} over {len(timings)} runs: median {median:.0f} ms, p95 {p95:.0f} ms, "
        f"max {timings[-1]:.0f} ms ({verdict} the {budget} ms budget)"
    )


def browser_timings() -> tuple[list[float], list[float]]:
    cards = sum(1 for item in ITEMS if item.type == FIRST_TYPE)
    tab, purchase = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_context(base_url=BASE_URL, viewport={"width": 1280, "height": 900}).new_page()
        ready_to_sign_in(page)
        page.click("#login-submit")
        page.locator("#rider-name").wait_for()
        for _ in range(RUNS):
            page.goto("/user/activities")
            page.locator("#rider-name").wait_for()
            started = time.perf_counter()
            page.click("#tab-in-game-shop")
            wait_shown(page, f"#products .product-card:nth-of-type({cards})")
            wait_shown(page, "#shop-coins")
            tab.append((time.perf_counter() - started) * 1000)

            page.click("#shop-add-coins")
            buy = page.locator(f"#bundle-{BUNDLE.id} button")
            buy.wait_for()
            # The modal's opening animation done, so the click is not held back waiting for it.
            page.wait_for_function("document.getAnimations().every((a) => a.playState === 'finished')")
            started = time.perf_counter()
            buy.click()
            wait_shown(page, "#payment-success")
            purchase.append((time.perf_counter() - started) * 1000)
        browser.close()
    return tab, purchase


def api_timings() -> list[float]:
    timings = []
    with httpx.Client(base_url=BASE_URL, timeout=10) as client:
        client.headers["Authorization"] = f"Bearer {game_client_token()}"
        for _ in range(RUNS):
            started = time.perf_counter()
            answer = client.post("/api/shop/coins", json={"package_id": BUNDLE.id})
            timings.append((time.perf_counter() - started) * 1000)
            answer.raise_for_status()
    return timings


def main() -> None:
    give_gems()
    tab, purchase = browser_timings()
    print(summary("shop tab with the full catalogue", tab, TAB_BUDGET_MS))
    print(summary("coin purchase in the payment modal", purchase, PURCHASE_BUDGET_MS))
    print(summary("coin purchase over the REST API", api_timings(), PURCHASE_BUDGET_MS))


if __name__ == "__main__":
    main()
