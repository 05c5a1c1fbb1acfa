"""Event list with 500 upcoming events in Chromium: from navigation to /events until the featured events,
the first page of "All events" and its page numbers are on the page; then from a click on Next until the
second page is shown.

Run against a running site and its database (the script adds the events it lacks, named "Bench race N"):
    BASE_URL=http://localhost:3000 DB_URL=sqlite:///data/cycling_site.db \
        .venv/bin/python scripts/bench/event_list.py
Each run is a full page load (a new document) by a visitor.
"""

import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from login_roundtrip import BASE_URL, CHROMIUM_ARGS
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cycling_site.db import get_session  # noqa: E402
from cycling_site.models.common import utcnow  # noqa: E402
from cycling_site.models.events import Event  # noqa: E402
from cycling_site.services import events  # noqa: E402
from cycling_site.services.demo_events import demo_events  # noqa: E402

RUNS = int(os.environ.get("RUNS", "20"))
UPCOMING = 500
# The list's share: 500 events now load as fast as the seeded 11 (a full page load here is about 320 ms).
BUDGET_MS = 500
PER_PAGE = 10


def add_events() -> int:
    """Tops the upcoming events up to 500 with copies of a demo event, a day apart."""
    with get_session() as session:
        groups = events.upcoming(session)
        present = len(groups["featured"]) + len(groups["all"])
        template = demo_events(utcnow())[2]
        for number in range(present, UPCOMING):
            starts_at = utcnow() + timedelta(days=30 + number)
            fields = template.model_dump(exclude={"id", "name", "starts_at", "closes_at"})
            closes_at = starts_at - timedelta(hours=2)
            session.add(
                Event(**fields, name=f"Bench race {number}", starts_at=starts_at, closes_at=closes_at)
            )
        session.commit()
        groups = events.upcoming(session)
        return len(groups["featured"]) + len(groups["all"])


def _p95(timings: list[float]) -> float:
    ordered = sorted(timings)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def main() -> None:
    upcoming = add_events()
    with get_session() as session:
        last_page = events.upcoming_page(session, 1, PER_PAGE).last_page
    loads, turns = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_context(base_url=BASE_URL, viewport={"width": 1280, "height": 900}).new_page()
        page.goto("/routes")
        for _ in range(RUNS):
            page.goto("/routes")
            page.locator("#tracks").first.wait_for()
            started = time.perf_counter()
            page.goto("/events")
            page.wait_for_function(
                "n => document.querySelectorAll('#all-events .event-summary').length === n",
                arg=PER_PAGE,
                timeout=30_000,
            )
            page.locator("#events-pagination").get_by_role(
                "button", name=f"Page {min(3, last_page)}"
            ).wait_for()
            loads.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            page.locator("#page-next").click()
            page.wait_for_function(
                "() => document.querySelector('#events-pagination .page-current')?.textContent === '2'",
                timeout=30_000,
            )
            turns.append((time.perf_counter() - started) * 1000)
        browser.close()
    median = statistics.median(loads)
    print(
        f"event list with {upcoming} upcoming events ({last_page} pages of {PER_PAGE}) over {RUNS} loads: "
        f"median {median:.0f} ms, p95 {_p95(loads):.0f} ms, max {max(loads):.0f} ms (budget {BUDGET_MS} ms); "
        f"next page: median {statistics.median(turns):.0f} ms, p95 {_p95(turns):.0f} ms"
    )
    if median > BUDGET_MS:
        raise SystemExit(f"over budget: median {median:.0f} ms > {BUDGET_MS} ms")


if __name__ == "__main__":
    main()
