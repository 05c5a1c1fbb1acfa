"""Dashboard load in Chromium: from navigation to /user/activities until the header and the overall
power curve are drawn.

Run against a running, seeded site:
    BASE_URL=http://localhost:3000 .venv/bin/python scripts/bench/dashboard_load.py
The demo rider has a few months of rides. Each run is a full page load (a new document), after one sign-in.
"""

import os
import statistics
import time

from login_roundtrip import BASE_URL, CHROMIUM_ARGS, ready_to_sign_in, wait_shown
from playwright.sync_api import sync_playwright

RUNS = int(os.environ.get("RUNS", "20"))


def main() -> None:
    timings = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=BASE_URL, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        ready_to_sign_in(page)
        page.click("#login-submit")
        page.locator("#overall-curve .recharts-line").first.wait_for()
        for _ in range(RUNS):
            page.goto("/user/profile")
            page.locator("#avatar-button").wait_for()
            started = time.perf_counter()
            page.goto("/user/activities", wait_until="commit")
            wait_shown(page, "#rider-name")
            wait_shown(page, "#overall-curve .recharts-line")
            timings.append((time.perf_counter() - started) * 1000)
        browser.close()
    timings.sort()
    p95 = timings[max(0, round(0.95 * len(timings)) - 1)]
    print(
        f"dashboard header and curve over {RUNS} loads: median {statistics.median(timings):.0f} ms, "
        f"p95 {p95:.0f} ms, max {timings[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
