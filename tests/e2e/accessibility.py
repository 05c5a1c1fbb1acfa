"""The accessibility check of every page the browser tests visit: axe-core runs in each page of a watched
browser context once the page has settled after each change of path or of the dialog open on it, and again
on the screen a test ends on. Every serious or critical violation fails the test that met it; each path,
and each dialog opened on it, is checked once per viewport, so the check costs a few seconds of a whole
run."""

from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Error

AXE_SOURCE = Path(__file__).resolve().parents[2] / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
FAILING_IMPACTS = ("serious", "critical")
SETTLE_MS = 1500
CHECK_LIMIT_MS = 30_000
# Playwright's evaluate has no time limit of its own: a check that never ends is reported, not waited for.
_CHECK_NOW = f"""() => window.__axeCheck && Promise.race([
  window.__axeCheck().then(() => "done"),
  new Promise((resolve) => setTimeout(() => resolve("late"), {CHECK_LIMIT_MS})),
])"""

_IN_PAGE = """
(() => {
  // Only the site's own pages: not blank pages, nor the API's Swagger and ReDoc pages (a vendor's UI).
  if (window.top !== window || !location.protocol.startsWith("http")) return;
  if (/^\\/api\\/(docs|redoc)/.test(location.pathname)) return;
  let checking = Promise.resolve();
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // A screen is the path and the dialog open on it, named by its title: each dialog is checked once.
  const screen = () => {
    const path = location.pathname.replace(/\\/$/, "") || "/";
    const dialog = document.querySelector("[role=dialog], [role=alertdialog]");
    if (!dialog) return path;
    const title = document.getElementById(dialog.getAttribute("aria-labelledby") || "");
    const label = (dialog.getAttribute("aria-label") || title?.textContent || "").trim().slice(0, 60);
    return `${path} (dialog: ${label || "untitled"})`;
  };
  const check = async () => {
    const name = screen();
    if (!(await window.__axeWanted(name))) return;
    // The title is set by the page's script as it starts: give it that moment, then a missing one counts.
    for (let waited = 0; !document.title && waited < 2000; waited += 100) await sleep(100);
    // Colours are read once fades and slides have ended (not the endless ones, such as spinners).
    // A dialog may open meanwhile, so the page is asked again until nothing is moving (at most 3 s).
    for (let waited = 0; waited < 3000; waited += 100) {
      const moving = document.getAnimations().filter((a) => a.playState === "running"
        && a.effect?.getTiming().iterations !== Infinity);
      if (!moving.length) break;
      await sleep(100);
    }
    const results = await axe.run(document, { resultTypes: ["violations"] });
    const failing = results.violations
      .filter((v) => FAILING_IMPACTS.includes(v.impact))
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                     nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + ": " + n.failureSummary) }));
    await window.__axeReport(name, failing);
  };
  window.__axeCheck = () => (checking = checking.then(check, check));
  let shown = null;
  let timer = null;
  setInterval(() => {
    const now = screen();
    if (now === shown) return;
    shown = now;
    clearTimeout(timer);
    timer = setTimeout(window.__axeCheck, SETTLE_MS);
  }, 250);
})();
"""


@dataclass
class AccessibilityCheck:
    """Screens checked in this run (by viewport) and what the current test's pages reported."""

    checked: set[tuple[str, str]] = field(default_factory=set)
    contexts: list[BrowserContext] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def watch(self, context: BrowserContext) -> BrowserContext:
        script = _IN_PAGE.replace("FAILING_IMPACTS", repr(list(FAILING_IMPACTS))).replace(
            "SETTLE_MS", str(SETTLE_MS)
        )
        context.add_init_script(script=AXE_SOURCE.read_text() + script)
        context.expose_binding("__axeWanted", self._wanted)
        context.expose_binding("__axeReport", self._report)
        self.contexts.append(context)
        return context

    def _wanted(self, source: dict, name: str) -> bool:
        return (_viewport(source), name) not in self.checked

    def _report(self, source: dict, name: str, failing: list[dict]) -> None:
        viewport = _viewport(source)
        if (viewport, name) in self.checked:
            return
        self.checked.add((viewport, name))
        for violation in failing:
            nodes = "".join(f"\n      {node}" for node in violation["nodes"])
            rule = f"{violation['id']} [{violation['impact']}] {violation['help']}"
            self.failures.append(f"{name} ({viewport}): {rule}{nodes}")

    def check_screens(self, context: BrowserContext) -> None:
        """Checks the screens the context's pages show now (the test's last ones)."""
        for page in context.pages:
            # A page that closed or navigated meanwhile has its next screen checked when shown.
            with suppress(Error):
                if page.evaluate(_CHECK_NOW) == "late":
                    self.failures.append(f"{page.url}: the accessibility check ran over {CHECK_LIMIT_MS} ms")

    def finish_test(self) -> list[str]:
        """Checks the screens of contexts still open, then hands over (and forgets) what was found."""
        for context in self.contexts:
            self.check_screens(context)
        failures, self.failures, self.contexts = self.failures, [], []
        return failures


class WatchedBrowser:
    """The session's browser; every context it opens is watched by the accessibility check."""

    def __init__(self, browser: Browser, check: AccessibilityCheck) -> None:
        self._browser = browser
        self._check = check

    def new_context(self, **options) -> BrowserContext:
        return self._check.watch(self._browser.new_context(**options))

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


def _viewport(source: dict) -> str:
    size = source["page"].viewport_size
    return "phone" if size and size["width"] < 600 else "desktop"
