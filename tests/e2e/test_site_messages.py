"""The site-wide message rules of spec 2 section 8: the no-response toast while the server does not
answer, and a lapsed session sent to login keeping the page's query."""

import re
from urllib.parse import quote

from playwright.sync_api import Page, expect

from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import site as msg
from tests.e2e.helpers import DEMO_PASSWORD, RIDER, at, fill_login, submit, wait_live


def test_no_response_toast_while_the_server_does_not_answer(page: Page):
    page.goto("/routes")
    expect(page.get_by_role("heading", name=re.compile("Tracks", re.I)).first).to_be_visible()
    wait_live(page)
    toast = page.get_by_text(msg.NO_RESPONSE)
    expect(toast).to_have_count(0)

    page.context.set_offline(True)
    expect(toast).to_be_visible()
    expect(page.get_by_text("Cannot connect to server")).to_have_count(0)

    page.context.set_offline(False)
    expect(toast).to_have_count(0)
    wait_live(page)


def test_a_lapsed_session_goes_to_login_keeping_the_query(page: Page):
    page.goto("/race-results?eventId=1&dayId=2")
    kept = (
        re.escape(quote("/race-results", safe=""))
        + "(%2F)?"
        + re.escape(quote("?eventId=1&dayId=2", safe=""))
    )
    expect(page).to_have_url(re.compile(rf"/auth/login\?redirect={kept}&reason=session_expired$"))
    expect(page.locator("#session-notice")).to_have_text(accounts_msg.SESSION_EXPIRED)
    fill_login(page, RIDER, DEMO_PASSWORD)
    submit(page, "#login-submit")
    expect(page).to_have_url(at("/race-results", "eventId=1&dayId=2"))
