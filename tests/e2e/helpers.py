"""What a rider does over and over: pass the human check, sign in, read the session cookies."""

import base64
import json
import re

from playwright.sync_api import Page, expect

from cycling_site.seed import DEMO_PASSWORD

RIDER = "rider@example.com"
KID = "kid@example.com"
NEW_KID = "newkid@example.com"


def pass_human_check(page: Page, submit_selector: str) -> None:
    """Ticks "I'm not a robot" and waits until the proof of work is done and Submit is enabled."""
    expect(page.locator(submit_selector)).to_be_disabled()
    page.locator("#human-check").get_by_text("I'm not a robot").click()
    expect(page.locator(submit_selector)).to_be_enabled()


def fill_login(page: Page, email: str, password: str) -> None:
    page.fill("#email", email)
    page.fill("#password", password)
    pass_human_check(page, "#login-submit")


def submit(page: Page, submit_selector: str) -> None:
    """Clicks Submit and waits until the site has taken the attempt (the button turns busy)."""
    page.click(submit_selector)
    expect(page.locator(submit_selector)).to_be_disabled()


def sign_in(page: Page, email: str = RIDER, password: str = DEMO_PASSWORD, path: str = "/auth/login") -> None:
    page.goto(path)
    fill_login(page, email, password)
    submit(page, "#login-submit")


def session_cookies(page: Page) -> dict[str, str]:
    """The session cookies that still hold a value (signing out empties both)."""
    cookies = page.context.cookies()
    return {c["name"]: c["value"] for c in cookies if c["name"].startswith("rider_") and c["value"]}


def token_claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def at(path: str, query: str = "") -> re.Pattern:
    """The URL of exactly this path (a trailing slash and a hash allowed), with this query if given."""
    query_part = re.escape("?" + query) if query else ""
    return re.compile(rf"^http://[^/]+{re.escape(path.rstrip('/'))}/?{query_part}(#.*)?$")


def wait_signed_out(page: Page) -> None:
    """Waits until the page has emptied both session cookies."""
    page.wait_for_function("() => !/rider_(id|token)=[^;]/.test(document.cookie)")
