"""What a rider does over and over: pass the human check, sign in, read the session cookies.

The session cookies are HttpOnly: the page's scripts never see them, the browser context does."""

import base64
import json
import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page, expect

from cycling_site.seed import DEMO_PASSWORD
from cycling_site.services import tokens
from cycling_site.state.session import HOME_AFTER_LOGIN
from scripts.bench.load import human_check_token

RIDER = "rider@example.com"
KID = "kid@example.com"
NEW_KID = "newkid@example.com"


def choose_files(zone: Locator, files) -> None:
    """Chooses files in a drop zone, then waits for the end of the upload's answer. Every choice sends one
    upload, a refused one too (with no files), and Reflex's page ignores a choice made while the zone's upload
    before is still answering: a rider takes longer to choose again, a test does not."""
    with zone.page.expect_request_finished(lambda request: urlsplit(request.url).path == "/_upload"):
        zone.set_input_files(files)


def wait_live(page: Page) -> None:
    """Waits until the page is up to date over its live connection (a snapshot page shows content before)."""
    expect(page.locator("html[data-live]")).to_have_count(1)


def wait_dashboard(page: Page) -> None:
    """Waits until the dashboard shows the rider's values: its frame paints before them."""
    expect(page.locator("#profile-header")).to_have_attribute("aria-busy", "false")


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
    """Clicks a human-checked Submit and waits until the site has taken the attempt: the used check
    disables the button, or the site has already moved on to the next page. The check runs on every
    frame, since a fast sign-in keeps the button disabled for less than one poll of `expect`. Forms
    without the check are clicked and their outcome awaited instead."""
    page.click(submit_selector)
    page.wait_for_function(
        "selector => { const button = document.querySelector(selector); return !button || button.disabled; }",
        arg=submit_selector,
    )


def sign_in(page: Page, email: str = RIDER, password: str = DEMO_PASSWORD, path: str = "/auth/login") -> None:
    page.goto(path)
    fill_login(page, email, password)
    submit(page, "#login-submit")


def returning_rider(
    page: Page, email: str = RIDER, password: str = DEMO_PASSWORD, path: str = "/auth/login"
) -> None:
    """Opens the site as a rider who signed in before: the browser already holds the session cookies, from a
    sign-in through the API, and opens where the sign-in page at `path` would have led (its `redirect`, or
    the dashboard's profile). For the tests whose subject comes after the sign-in; `sign_in` drives the form
    itself, in the tests of signing in."""
    challenge = page.request.get("/api/altcha/challenge")
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(challenge.url))
    token = human_check_token(challenge.json())
    body = {"email": email, "password": password, "remember": True, "token": token}
    answer = page.request.post("/api/auth/login", data=body, headers={"Origin": origin})
    assert answer.ok, answer.text()
    data = answer.json()["data"]
    cookies = {tokens.TOKEN_COOKIE: data["token"], tokens.USER_ID_COOKIE: data["uuId"]}
    page.context.add_cookies(
        [
            {"name": name, "value": value, "url": origin, "httpOnly": True, "sameSite": "Lax"}
            for name, value in cookies.items()
        ]
    )
    page.goto(parse_qs(urlsplit(path).query).get("redirect", [HOME_AFTER_LOGIN])[0])


def wait_signed_in(page: Page) -> None:
    """Waits until the page has checked the session and shows the rider's menu (cookies stored,
    session watch running)."""
    expect(page.locator("#avatar-button")).to_be_visible()


def session_cookies(page: Page) -> dict[str, str]:
    """The session cookies that still hold a value (signing out empties both)."""
    cookies = page.context.cookies()
    return {c["name"]: c["value"] for c in cookies if c["name"].startswith("rider_") and c["value"]}


def token_claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def at(path: str, query: str = "") -> re.Pattern:
    """The URL of exactly this path (a trailing slash allowed, and a hash unless the path names one), with
    this query if given."""
    path, _, fragment = path.partition("#")
    query_part = re.escape("?" + query) if query else ""
    fragment_part = re.escape("#" + fragment) if fragment else "(#.*)?"
    return re.compile(rf"^http://[^/]+{re.escape(path.rstrip('/'))}/?{query_part}{fragment_part}$")


def clearing_cookies(page: Page):
    """Expects the page to remove session cookies that no longer make a session (its POST to
    /api/auth/session/clear); use it around the action, then read the cookies."""
    return page.expect_response(
        lambda response: response.url.endswith("/api/auth/session/clear") and response.status == 204
    )


def open_mailbox(page: Page, recipient: str):
    """The demo mailbox for one address, newest message first, as a rider reads their inbox."""
    page.goto(f"/dev/mailbox?to={recipient}")
    expect(page.get_by_role("heading", name="Mailbox")).to_be_visible()
    return page.locator(".mail-message")


def mail_link(page: Page, recipient: str, path: str) -> str:
    """The address of the newest e-mailed link to `path` for this recipient."""
    messages = open_mailbox(page, recipient)
    expect(messages.first).to_be_visible()
    link = messages.first.locator(f".mail-link[href*='{path}']").first
    expect(link).to_be_visible()
    return link.get_attribute("href") or ""


def new_account(db, email: str, **fields):
    """An account stored directly, for flows that change or delete it."""
    from datetime import date

    from cycling_site.models import Account
    from cycling_site.seed import DEMO_PASSWORD
    from cycling_site.services.accounts import hash_password

    values = {
        "email": email,
        "password_hash": hash_password(DEMO_PASSWORD),
        "firstname": "Test",
        "lastname": "Rider",
        "dob": date(1990, 5, 5),
        "email_verified": True,
        **fields,
    }
    account = Account(**values)
    db.add(account)
    db.commit()
    return account
