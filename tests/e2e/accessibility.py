"""The accessibility check of every page the browser tests visit: axe-core runs in each page of a watched
browser context once the page has settled after each change of path or of the dialog open on it, and again
on the screen a test ends on. Each screen is checked in the context's own colour scheme, and each kind of
screen in the other one too (emulated), with every rule axe ships, best practices and experimental drafts
included, and any violation of any impact fails the test that met it. The text whose contrast
axe leaves for review (over gradients, translucent badges, partly covered) is measured from the pixels: the
screen is shot as shown and again with that text made transparent, so the changed pixels are the text and
the second shot holds the background under each of them. Each path, and each dialog opened on it, is
checked once per viewport; the other scheme once per kind of screen: its route (one for every event's
registration page), its dialog and the ids it shows (an event's wizard is not its closed notice), so the
check costs a few seconds of a whole run."""

import io
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Error, Page

from cycling_site.routes import route_for

AXE_SOURCE = Path(__file__).resolve().parents[2] / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
SCHEMES = ("light", "dark")
SETTLE_MS = 1500
CHECK_LIMIT_MS = 30_000
# WCAG 1.4.3: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
MIN_CONTRAST = 4.5
MIN_CONTRAST_LARGE = 3.0
# A pixel that differs by more than this in a channel (of 255) once the text is transparent is the text's.
PIXEL_CHANGED = 8
# Nodes a rule is wrong about, by rule and CSS selector, each with its reason.
EXEMPT: dict[tuple[str, str], str] = {
    ("focus-order-semantics", "[data-radix-focus-guard]"): (
        "Radix's focus guards around an open menu or dialog: invisible, and they pass the focus on at once,"
        " so the keyboard never stops on them"
    ),
    ("region", "[data-radix-popper-content-wrapper] *"): (
        "an open menu or select list is drawn at the end of the page, outside the landmarks; it belongs to"
        " the control that opened it, which is in one"
    ),
}
# Playwright's evaluate has no time limit of its own: a check that never ends is reported, not waited for.
_CHECK_NOW = f"""() => window.__axeCheck && Promise.race([
  window.__axeCheck().then(() => "done"),
  new Promise((resolve) => setTimeout(() => resolve("late"), {CHECK_LIMIT_MS})),
])"""
# Hides the marked texts, keeping what their own style said, and puts it back.
_HIDE_TEXT = """hide => {
  const names = ["color", "-webkit-text-fill-color"];
  for (const element of document.querySelectorAll("[data-axe-pixels]")) {
    if (hide) {
      element.__axeKept = names.map((name) => [name, element.style.getPropertyValue(name),
                                               element.style.getPropertyPriority(name)]);
      for (const name of names) element.style.setProperty(name, "transparent", "important");
    } else {
      for (const [name, value, priority] of element.__axeKept || []) {
        if (value) element.style.setProperty(name, value, priority);
        else element.style.removeProperty(name);
      }
      delete element.__axeKept;
    }
  }
}"""

_IN_PAGE = """
(() => {
  // Only the site's own pages: not blank pages, nor the API's Swagger and ReDoc pages (a vendor's UI).
  if (window.top !== window || !location.protocol.startsWith("http")) return;
  if (/^\\/api\\/(docs|redoc)/.test(location.pathname)) return;
  let checking = Promise.resolve();
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const exempt = EXEMPT;
  // A screen is the path and the dialog open on it, named by its title: each dialog is checked once.
  const screen = () => {
    const path = location.pathname.replace(/\\/$/, "") || "/";
    const dialog = document.querySelector("[role=dialog], [role=alertdialog]");
    if (!dialog) return path;
    const title = document.getElementById(dialog.getAttribute("aria-labelledby") || "");
    const label = (dialog.getAttribute("aria-label") || title?.textContent || "").trim().slice(0, 60);
    return `${path} (dialog: ${label || "untitled"})`;
  };
  // What kind of screen it is, for the other scheme: the ids it shows, numbers aside (React's own made-up
  // ids left out), so two events' wizards are one kind and an event's closed notice another.
  const kind = () => [...new Set([...document.querySelectorAll("body [id]")]
    .filter((found) => !/[:«]/.test(found.id) && found.checkVisibility())
    .map((found) => found.id.replace(/\\d+/g, "#")))].sort().join(" ");
  // Colours are read once fades and slides have ended (not the endless ones, such as spinners).
  // A dialog may open meanwhile, so the page is asked again until nothing is moving (at most 3 s).
  const settle = async () => {
    for (let waited = 0; waited < 3000; waited += 100) {
      const moving = document.getAnimations().filter((a) => a.playState === "running"
        && a.effect?.getTiming().iterations !== Infinity);
      if (!moving.length) return;
      await sleep(100);
    }
  };
  const element = (node) => node.target.length === 1 ? document.querySelector(node.target[0]) : null;
  const isExempt = (rule, node) => {
    const found = element(node);
    return !!found && exempt.some(([id, selector]) => id === rule && found.matches(selector));
  };
  let options = null;
  const runOptions = () => {
    // Every rule axe ships: best practices and experimental drafts included.
    const values = axe.getRules().map((rule) => rule.ruleId);
    return options ||= { runOnly: { type: "rule", values }, resultTypes: ["violations", "incomplete"] };
  };
  // The text axe could not judge, measured from the pixels by the test (__axePixels).
  const pixelContrast = async (incomplete) => {
    const items = [];
    for (const node of incomplete.find((result) => result.id === "color-contrast")?.nodes || []) {
      const found = element(node);
      // The page itself: its text is its elements', each measured on its own.
      if (!found || found === document.documentElement || found === document.body) continue;
      if (isExempt("color-contrast", node)) continue;
      const box = found.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      // Text under a menu or dialog is not read now (a translucent one blurs it): it is left for its screen.
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!top || !(found === top || found.contains(top) || top.contains(found))) continue;
      const style = getComputedStyle(found);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
      found.setAttribute("data-axe-pixels", "");
      const onScreen = box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
      items.push({ target: node.target.join(" "), large, onScreen, left: box.left, top: box.top,
                   x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height });
    }
    if (!items.length) return [];
    try {
      return await window.__axePixels(items);
    } finally {
      for (const marked of document.querySelectorAll("[data-axe-pixels]")) {
        marked.removeAttribute("data-axe-pixels");
      }
    }
  };
  const run = async (scheme) => {
    // Colours are judged as they end up, not half way through a fade (an infinite one cannot finish).
    for (const animation of document.getAnimations()) {
      try { animation.finish(); } catch {}
    }
    const results = await axe.run(document, runOptions());
    const failing = results.violations
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes
        .filter((n) => !isExempt(v.id, n)).map((n) => n.target.join(" ") + ": " + n.failureSummary) }))
      .filter((v) => v.nodes.length);
    const faint = await pixelContrast(results.incomplete);
    if (faint.length) failing.push({ id: "color-contrast (pixels)", impact: "serious",
      help: "Text axe left for review has too little contrast, measured from the screen", nodes: faint });
    return failing.map((v) => ({ ...v, scheme, nodes: v.nodes.slice(0, 4) }));
  };
  const check = async () => {
    const name = screen();
    if (!(await window.__axeWanted(name))) return;
    // The title is set by the page's script as it starts: give it that moment, then a missing one counts.
    for (let waited = 0; !document.title && waited < 2000; waited += 100) await sleep(100);
    // A screen is checked once loaded: a test may end on one still saying it is loading (at most 5 s).
    for (let waited = 0; document.querySelector("[aria-busy=true]") && waited < 5000; waited += 100) {
      await sleep(100);
    }
    await settle();
    const failing = await run(await window.__axeScheme(false));
    // The other scheme, once per kind of screen: the page is given two frames to follow it, then its
    // transitions.
    if (await window.__axeWantedOther(name, kind())) {
      const other = await window.__axeScheme(true);
      try {
        await frame();
        await frame();
        await settle();
        failing.push(...(await run(other)));
      } finally {
        await window.__axeScheme(false);
      }
    }
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
    # Kinds of screen checked in the other colour scheme too: viewport, route, dialog and the ids shown.
    checked_other: set[tuple[str, str, str, str]] = field(default_factory=set)
    contexts: list[BrowserContext] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # Each watched context's own colour scheme, which its pages go back to after the check.
    schemes: dict[int, str] = field(default_factory=dict)

    def watch(self, context: BrowserContext, scheme: str = "light") -> BrowserContext:
        exempt = [list(key) for key in EXEMPT]
        script = _IN_PAGE.replace("EXEMPT", repr(exempt)).replace("SETTLE_MS", str(SETTLE_MS))
        context.add_init_script(script=AXE_SOURCE.read_text() + script)
        context.expose_binding("__axeWanted", self._wanted)
        context.expose_binding("__axeWantedOther", self._wanted_other)
        context.expose_binding("__axeReport", self._report)
        context.expose_binding("__axeScheme", self._scheme)
        context.expose_binding("__axePixels", self._pixels)
        self.schemes[id(context)] = scheme
        self.contexts.append(context)
        return context

    def _wanted(self, source: dict, name: str) -> bool:
        return (_viewport(source), name) not in self.checked

    def _wanted_other(self, source: dict, name: str, ids: str) -> bool:
        """Whether the screen is the first of its kind to be checked in the other scheme; says so once."""
        path, _, dialog = name.partition(" (dialog: ")
        route = route_for(path)
        kind = (_viewport(source), route.path if route else path, dialog, ids)
        if kind in self.checked_other:
            return False
        self.checked_other.add(kind)
        return True

    def _scheme(self, source: dict, other: bool) -> str:
        """Shows the page in its context's colour scheme, or in the other one; says which."""
        own = self.schemes.get(id(source["context"]), "light")
        scheme = next(s for s in SCHEMES if s != own) if other else own
        source["page"].emulate_media(color_scheme=scheme)
        return scheme

    def _pixels(self, source: dict, items: list[dict]) -> list[str]:
        """The contrast of each marked text, from shots of the page as shown, with the marked text hidden,
        and as shown again. Texts on the screen are shot as they are; the others in a shot of the whole
        page, which Chromium takes by enlarging the page for a moment (charts may draw again meanwhile:
        their pixels are then no longer steady, and left out)."""
        page: Page = source["page"]
        failing = []
        for whole_page in (False, True):
            group = [item for item in items if item["onScreen"] != whole_page]
            if not group:
                continue
            x, y = ("x", "y") if whole_page else ("left", "top")
            left = min(item[x] for item in group)
            top = min(item[y] for item in group)
            right = max(item[x] + item["width"] for item in group)
            bottom = max(item[y] + item["height"] for item in group)
            clip = {"x": left, "y": top, "width": right - left, "height": bottom - top}
            shown = _shot(page, clip, whole_page)
            page.evaluate(_HIDE_TEXT, True)
            try:
                hidden = _shot(page, clip, whole_page)
            finally:
                page.evaluate(_HIDE_TEXT, False)
            # Pixels that changed on their own (an image arriving, a slide moving) are not the text's.
            again = _shot(page, clip, whole_page)
            for item in group:
                box = (
                    item[x] - left,
                    item[y] - top,
                    item[x] - left + item["width"],
                    item[y] - top + item["height"],
                )
                box = tuple(round(value) for value in box)
                measured = text_contrast(shown.crop(box), hidden.crop(box), again.crop(box))
                if measured is None:
                    continue
                ratio, text, background = measured
                least = MIN_CONTRAST_LARGE if item["large"] else MIN_CONTRAST
                if ratio < least:
                    failing.append(f"{item['target']}: {text} on {background}, {ratio:.2f}:1 under {least}:1")
        return failing

    def _report(self, source: dict, name: str, failing: list[dict]) -> None:
        viewport = _viewport(source)
        if (viewport, name) in self.checked:
            return
        self.checked.add((viewport, name))
        for violation in failing:
            nodes = "".join(f"\n      {node}" for node in violation["nodes"])
            rule = f"{violation['id']} [{violation['impact']}] {violation['help']}"
            self.failures.append(f"{name} ({viewport}, {violation['scheme']}): {rule}{nodes}")

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
        self.schemes.clear()
        return failures


class WatchedBrowser:
    """The session's browser; every context it opens is watched by the accessibility check."""

    def __init__(self, browser: Browser, check: AccessibilityCheck) -> None:
        self.unwatched = browser
        self._check = check

    def new_context(self, **options) -> BrowserContext:
        return self._check.watch(self.unwatched.new_context(**options), options.get("color_scheme", "light"))

    def __getattr__(self, name: str):
        return getattr(self.unwatched, name)


def text_contrast(
    shown: Image.Image, hidden: Image.Image, again: Image.Image
) -> tuple[float, str, str] | None:
    """The WCAG contrast of a text, its colour and its worst background, from shots with the text, without
    it and with it again. The text's pixels are those the hiding changed (and nothing else did): its colour
    is that of its most contrasted pixel (anti-aliased edges blend into the background), and each pixel has
    its own background, so text over a gradient is judged on the gradient's worst part under it. None when
    no text shows (covered or scrolled away), or it was drawn again while shot."""
    before, after, restored = (
        np.asarray(image.convert("RGB"), dtype=np.int16) for image in (shown, hidden, again)
    )
    steady = np.abs(before - restored).max(axis=2) <= PIXEL_CHANGED
    changed = np.abs(before - after).max(axis=2) > PIXEL_CHANGED
    text_pixels = steady & changed
    # Most of what changed moved on its own: what is left is no measure of the text.
    if text_pixels.sum() < changed.sum() / 2:
        return None
    text, background = before[text_pixels], after[text_pixels]
    core = text[np.argmax(_ratio(_luminance(text), _luminance(background)))]
    ratios = _ratio(_luminance(core[np.newaxis]), _luminance(background))
    worst = int(np.argmin(ratios))
    return float(ratios[worst]), _hex(core), _hex(background[worst])


def _luminance(rgb: np.ndarray) -> np.ndarray:
    channel = rgb / 255
    linear = np.where(channel <= 0.04045, channel / 12.92, ((channel + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def _ratio(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return (np.maximum(first, second) + 0.05) / (np.minimum(first, second) + 0.05)


def _hex(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{int(value):02X}" for value in rgb)


def _shot(page: Page, clip: dict, whole_page: bool) -> Image.Image:
    return Image.open(io.BytesIO(page.screenshot(clip=clip, full_page=whole_page, scale="css")))


def _viewport(source: dict) -> str:
    size = source["page"].viewport_size
    return "phone" if size and size["width"] < 600 else "desktop"
