"""Lighthouse scores of the site's main pages, on desktop and on a phone, signed in where the page needs it.

    .venv/bin/python scripts/bench/lighthouse.py [--runs 3] [--page /support ...] [--form-factor mobile]

Builds and starts the production site on a free 127.0.0.1 port with a fresh seeded database (the e2e
suite's own start-up), signs the demo rider in through the sign-in page in Chromium, and runs Lighthouse
(npm, .tools/node_modules) in headless /usr/bin/chromium against each page. The session's HttpOnly
cookies go with every request Lighthouse's page load makes (--extra-headers), the live connection's
handshake included. Prints, per page and form factor, the best and the worst of N runs' performance, the
best accessibility, best practices and SEO, the largest layout shift, and the element of the largest paint
(real content, or a placeholder waiting for the live connection); then what any run flagged.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from scripts.bench.site_runner import start_site  # noqa: E402
from tests.e2e import conftest  # noqa: E402
from tests.e2e.helpers import sign_in, wait_signed_in  # noqa: E402

LIGHTHOUSE = ROOT / ".tools" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# (path, signed in)
PAGES = [
    ("/", False),
    ("/auth/login", False),
    ("/event/detail/1", False),
    ("/support", False),
    ("/faqs", False),
    ("/teams", False),
    ("/routes", False),
    ("/user/activities", True),
    ("/user/profile", True),
    ("/user/activities#in-game-shop", True),
    ("/wallet", True),
]
FORM_FACTORS = ("desktop", "mobile")
RUN_TIMEOUT_S = 180
CHROME_FLAGS = " ".join(["--headless=new", *conftest.CHROMIUM_ARGS])


def session_cookie_header(url: str) -> str:
    """Signs the demo rider in as a rider would and returns the session cookies as one Cookie header."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=conftest.CHROMIUM, headless=True, args=conftest.CHROMIUM_ARGS
        )
        page = browser.new_context(base_url=url).new_page()
        sign_in(page)
        wait_signed_in(page)
        cookies = page.context.cookies()
        browser.close()
    return "; ".join(f"{c['name']}={c['value']}" for c in cookies if c["name"].startswith("rider_"))


def lighthouse_once(url: str, form_factor: str, headers: dict[str, str], keep: Path | None) -> dict:
    """One Lighthouse run; the parts of its report this script prints. `keep`: a folder to keep the
    whole report in (for Lighthouse's own viewer)."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as work:
        report_path = Path(work) / "report.json"
        args = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report_path}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROME_FLAGS}",
            f"--extra-headers={json.dumps(headers)}",
            "--max-wait-for-load=60000",
        ]
        if form_factor == "desktop":
            args.append("--preset=desktop")
        env = {**os.environ, "CHROME_PATH": conftest.CHROMIUM, "TMPDIR": work}
        subprocess.run(args, env=env, check=True, capture_output=True, timeout=RUN_TIMEOUT_S, cwd=work)
        report = json.loads(report_path.read_text())
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            name = f"{url.split('/', 3)[-1].replace('/', '_').replace('#', '_') or 'events'}-{form_factor}"
            (keep / f"{name}-{time.strftime('%H%M%S')}.json").write_bytes(report_path.read_bytes())
    if "/auth/login" in report["finalDisplayedUrl"] and "/auth/login" not in url:
        raise RuntimeError(f"{url} went to the sign-in page: the session did not reach it")
    audits = report["audits"]
    failing = {
        category: sorted(
            audits[ref["id"]]["title"]
            for ref in report["categories"][category]["auditRefs"]
            if ref["weight"] and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
        )
        for category in ("best-practices", "seo", "accessibility")
    }
    return {
        "scores": {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES},
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "lcp_element": largest_paint_element(audits),
        "failing": failing,
    }


def largest_paint_element(audits: dict) -> str:
    """The start of the largest paint's element as Lighthouse saw it: its text when it has some."""
    for item in audits.get("largest-contentful-paint-element", {}).get("details", {}).get("items", []):
        for row in item.get("items", []):
            node = row.get("node") or {}
            if node.get("nodeLabel") or node.get("snippet"):
                return " ".join((node.get("nodeLabel") or node["snippet"]).split())[:60]
    return "?"


def best_of(runs: list[dict]) -> dict:
    """Each score's best run and the worst run's performance, the largest layout shift and paint time, the
    largest paint's elements, and what any run flagged."""
    return {
        "scores": {c: max(run["scores"][c] for run in runs) for c in CATEGORIES},
        "worst": min(run["scores"]["performance"] for run in runs),
        "cls": max(run["cls"] for run in runs),
        "lcp_s": max(run["lcp_s"] for run in runs),
        "lcp_elements": sorted({run["lcp_element"] for run in runs}),
        "failing": {
            category: sorted({title for run in runs for title in run["failing"][category]})
            for category in runs[0]["failing"]
        },
    }


def row_of(path: str, form_factor: str, result: dict) -> str:
    scores = result["scores"]
    elements = " / ".join(element.replace("|", "/") for element in result["lcp_elements"])
    return (
        f"| `{path}` | {form_factor} | {scores['performance']} / {result['worst']} | "
        f"{scores['accessibility']} | {scores['best-practices']} | {scores['seo']} | {result['cls']:.3f} | "
        f"{result['lcp_s']:.1f} | {elements} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page and form factor (best of)")
    parser.add_argument("--page", action="append", help="only this path (repeatable)")
    parser.add_argument("--form-factor", choices=FORM_FACTORS, action="append", help="only this form factor")
    parser.add_argument("--reports", type=Path, help="keep every run's whole report (JSON) in this folder")
    options = parser.parse_args()
    pages = [(path, signed) for path, signed in PAGES if not options.page or path in options.page]
    form_factors = options.form_factor or list(FORM_FACTORS)
    started = time.monotonic()
    rows = []
    url, stop_site = start_site()
    try:
        cookie = session_cookie_header(url)
        for path, signed in pages:
            headers = {"Cookie": cookie} if signed else {}
            for form_factor in form_factors:
                runs = [
                    lighthouse_once(url + path, form_factor, headers, options.reports)
                    for _ in range(options.runs)
                ]
                result = best_of(runs)
                rows.append((path, form_factor, result))
                print(row_of(path, form_factor, result), file=sys.stderr, flush=True)
    finally:
        stop_site()
    print(f"Lighthouse, {options.runs} runs each ({time.monotonic() - started:.0f} s in all)\n")
    print(
        "| page | form factor | performance best / worst | accessibility | best practices | SEO "
        "| CLS (worst) | largest paint (worst, s) | largest paint's element |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for path, form_factor, result in rows:
        print(row_of(path, form_factor, result))
    print()
    for path, form_factor, result in rows:
        for category, titles in result["failing"].items():
            if titles:
                print(f"{path} ({form_factor}) {category}: {'; '.join(titles)}")


if __name__ == "__main__":
    main()
