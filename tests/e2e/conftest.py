"""The built site, started once per test session on a free port with a fresh seeded database,
driven in Debian's Chromium through Playwright."""

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from sqlmodel import Session, create_engine

from scripts.bench.site_runner import LOG_NAME, free_port, start_site
from tests.e2e.accessibility import AccessibilityCheck, WatchedBrowser
from tests.e2e.slow_network import Relay

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}

EXPECT_MS = 15_000
expect.set_options(timeout=EXPECT_MS)

# Flows that cross the site's workers when its state is in Redis: session cookies written by HTTP answers
# and read by the socket, uploads sent over HTTP to a state on another worker, background events, state
# kept between page loads (the payment return). ./scripts/test runs them in that mode, the harder case of the
# same code, and every other test in memory: the modules below whole, and elsewhere the tests marked
# @pytest.mark.multi_worker (the rest never leave one worker).
MULTI_WORKER_MODULES = frozenset(
    {
        "test_forged_identity",
        "test_offline",
        "test_session",
        "test_third_party_import",
        "test_weigh_ins",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in MULTI_WORKER_MODULES:
            item.add_marker(pytest.mark.multi_worker)


@dataclass(frozen=True)
class Site:
    url: str
    db_url: str
    log: Path
    relay: Relay


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    """The site behind the network relay: its address, the one its pages and live connection use, is the
    relay's, which forwards at once until a test slows it down (`slow_network`)."""
    data_dir = Path(tempfile.mkdtemp(prefix="cycling-e2e-"))
    db_url = f"sqlite:///{data_dir / 'e2e.db'}"
    port = free_port()
    relay = Relay(port)
    env = {
        "PORT": str(port),
        "SITE_URL": relay.url,
        # The pages' live connection goes to the page's own host on the relay's port.
        "REFLEX_API_URL": f"http://localhost:{relay.port}",
        "DATA_DIR": str(data_dir),
        "DB_URL": db_url,
        # Every e2e test fails its sign-ins from 127.0.0.1; the per-address limit is covered by the API tests.
        "LOGIN_LIMIT_PER_ADDRESS": "10000/minute",
        # Likewise every contact message comes from 127.0.0.1; the limit is covered by the API and unit tests.
        "CONTACT_LIMIT_PER_ADDRESS": "10000/hour",
        # The widget still solves a real challenge that the site verifies, only an easier one: at the demo's
        # difficulty each of the suite's few hundred ticks took 0.9 s. The difficulty is a unit test's.
        "ALTCHA_MAX_NUMBER": "1000",
        # The slow test card pays this long after the card form (test_shop.SLOW_CARD_SECONDS).
        "PAYMENTS_SLOW_CARD_SECONDS": "10",
    }
    url, stop = start_site(env)
    yield Site(url, db_url, data_dir / LOG_NAME, relay)
    stop()
    relay.close()


@pytest.fixture
def slow_network(site: Site) -> Iterator[Relay]:
    """A phone on a mobile network: every chunk each way waits 150 ms, give or take 60."""
    site.relay.slow(150, jitter_ms=60)
    yield site.relay
    site.relay.fast()


@pytest.fixture(scope="session")
def accessibility_check() -> AccessibilityCheck:
    return AccessibilityCheck()


@pytest.fixture(autouse=True)
def accessible_screens(accessibility_check: AccessibilityCheck) -> Iterator[None]:
    """Fails the test whose pages showed a serious or critical accessibility violation."""
    yield
    if failures := accessibility_check.finish_test():
        pytest.fail("Accessibility violations (axe-core):\n  " + "\n  ".join(failures), pytrace=False)


@pytest.fixture(scope="session")
def browser(accessibility_check: AccessibilityCheck) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield WatchedBrowser(browser, accessibility_check)
        browser.close()


def _page(browser: Browser, accessibility_check: AccessibilityCheck, **options) -> Iterator[Page]:
    context = browser.new_context(**options)
    page = context.new_page()
    yield page
    accessibility_check.check_screens(context)
    context.close()


@pytest.fixture
def page(browser: Browser, site: Site, accessibility_check: AccessibilityCheck) -> Iterator[Page]:
    yield from _page(browser, accessibility_check, viewport=DESKTOP, base_url=site.url)


@pytest.fixture
def phone_page(browser: Browser, site: Site, accessibility_check: AccessibilityCheck) -> Iterator[Page]:
    yield from _page(
        browser, accessibility_check, viewport=PHONE, base_url=site.url, is_mobile=True, has_touch=True
    )


@pytest.fixture(scope="session")
def site_engine(site: Site):
    engine = create_engine(site.db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def db(site_engine) -> Iterator[Session]:
    """The running site's database, to arrange data and check what was stored."""
    with Session(site_engine, expire_on_commit=False) as session:
        yield session
