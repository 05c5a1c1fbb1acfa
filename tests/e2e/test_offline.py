"""Nothing at run time comes from outside: every request of a visit stays on the site's host."""

import re
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from tests.e2e.helpers import sign_in


def test_every_request_stays_on_the_site(page: Page, site):
    hosts: set[str] = set()

    def note(request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("data", "blob"):
            hosts.add(url.netloc)

    page.on("request", note)
    page.goto("/auth/register")
    expect(page.get_by_role("heading", name="CREATE ACCOUNT")).to_be_visible()
    sign_in(page)
    expect(page).to_have_url(re.compile(r"#profile$"))
    page.goto("/api/docs")
    expect(page.get_by_role("heading", name=re.compile("API"))).to_be_visible()
    expect(page.get_by_text("/api/auth/login", exact=True)).to_be_visible()
    assert hosts == {urlsplit(site.url).netloc}
