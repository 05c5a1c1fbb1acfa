"""How the frontend build is put together: what each page downloads before it can draw.

- The icons every page uses travel as one file, and so do the site's small widgets (countdown, flag,
  hash and session watchers, social icons). Left to itself, the build gave each one shared by two pages a
  file of its own: the dashboard asked for about twenty-five files of a few hundred bytes before it could
  draw, six at a time on a phone's connection.
- Radix Themes' stylesheet carries the colour scales the site uses, not all thirty of them.
- Radix Themes' components travel with the pages that show them. Reflex keeps a loader that imports the
  whole package for components sent from the server (the site has none); with it, every page downloaded
  all of Radix Themes (500 KB) before it could start.
- A page's scripts take it over once the browser has painted what its HTML holds (after_first_paint).
- An event's page is prerendered once, at an address no event has: the server answers every event's address
  with it, its first screen filled in (cycling_site/api/first_screen.py). React Router prerenders only the
  pages without parameters by itself."""

import dataclasses
import re

from reflex.constants import Dirs, PageNames, ReactRouter
from reflex.plugins import Plugin
from reflex_components_radix.plugin import RadixThemesPlugin

ANCHOR = "codeSplitting: {\n          groups: ["
# Each group: the file's name and the modules it takes (a regular expression over module paths).
GROUPS = {
    "icons": r"node_modules\/lucide-react\/",
    "widgets": "|".join(
        [
            r"external\/components\/(countdown|country_flag|hash_watch|session_watch|social_icon)\/",
            r"external\/components\/ride_charts\/ride_charts\.jsx",
            r"node_modules\/react-countdown\/",
        ]
    ),
}
CHUNK_GROUPS = "".join(
    f"\n            {{\n              test: /{test}/,\n              name: {name!r},\n            }},"
    for name, test in GROUPS.items()
)

# The prerendered event page (a path of the route /event/detail/[id]).
EVENT_TEMPLATE_PATH = "/event/detail/first-screen"
PRERENDER_ALL = '"prerender": true'
PRERENDER_WITH_EVENT = f'"prerender": ({{getStaticPaths}}) => [...getStaticPaths(), "{EVENT_TEMPLATE_PATH}"]'


def prerender_event_page(router_config: str) -> str:
    """The production build's prerendered pages with the event page's template; a development build
    prerenders nothing."""
    return router_config.replace(PRERENDER_ALL, PRERENDER_WITH_EVENT, 1)


# Every colour scale a page names (accent, grays, color_scheme values); tests/unit/test_bundling.py keeps
# it in step with the code.
SITE_COLORS = ("amber", "blue", "gray", "green", "orange", "red", "slate")


def group_chunks(vite_config: str) -> str:
    """Adds the site's groups to the build's code-splitting groups, once (the file may be kept from the
    last build)."""
    if CHUNK_GROUPS in vite_config:
        return vite_config
    if ANCHOR not in vite_config:
        raise RuntimeError(f"vite.config.js has no {ANCHOR!r}: the build's template changed, see bundling.py")
    return vite_config.replace(ANCHOR, ANCHOR + CHUNK_GROUPS, 1)


APP_ROOT_FILE = f"{Dirs.PAGES}/{PageNames.APP_ROOT}"
RADIX_LOADER = '    "@radix-ui/themes": () => import("@radix-ui/themes"),\n'


def drop_radix_loader(app_root: str) -> str:
    """The app root without the loader of Radix Themes for server-sent components."""
    if RADIX_LOADER not in app_root:
        raise RuntimeError(f"root.jsx has no {RADIX_LOADER!r}: the build's template changed, see bundling.py")
    return app_root.replace(RADIX_LOADER, "", 1)


class ChunkGroupsPlugin(Plugin):
    """Reflex plugin that edits the generated vite.config.js and root.jsx before each build."""

    def pre_compile(self, **context) -> None:
        context["add_modify_task"](ReactRouter.VITE_CONFIG_FILE, group_chunks)
        context["add_modify_task"](APP_ROOT_FILE, drop_radix_loader)


class PrerenderEventPagePlugin(Plugin):
    """Reflex plugin that edits the generated react-router.config.js before each build."""

    def pre_compile(self, **context) -> None:
        context["add_modify_task"](ReactRouter.CONFIG_FILE, prerender_event_page)


@dataclasses.dataclass
class SiteColorsThemePlugin(RadixThemesPlugin):
    """Radix Themes with the site's colour scales only: the whole stylesheet is 700 KB to parse before a
    page draws, a fifth of it scales no page uses."""

    def get_stylesheet_paths(self, **context) -> tuple[str, ...]:
        if not self.enabled:
            return ()
        # The scales before the base tokens, as in Radix's own tokens.css: the base maps the theme's gray
        # (slate) over the plain gray scale.
        return (
            *(f"@radix-ui/themes/tokens/colors/{color}.css" for color in SITE_COLORS),
            "@radix-ui/themes/tokens/base.css",
            "@radix-ui/themes/components.css",
            "@radix-ui/themes/utilities.css",
        )


# React takes a page over (a 100-600 ms task on a phone) once the browser has painted what the HTML holds:
# started at once, as the build has it, the takeover could run first and hold the first paint back, and
# Lighthouse then counted every script as standing before the page's first and largest paint. A tab
# opened in the background, which paints nothing, takes the page over at once.
_TAKE_OVER = re.compile(r'import\("(/assets/entry\.client-[\w-]+\.js)"\);')
_AFTER_PAINT = (
    'const takeOver = () => import("{src}");'
    " document.hidden ? takeOver() : requestAnimationFrame(() => setTimeout(takeOver));"
)


def after_first_paint(page: str) -> str:
    """A built page whose scripts start after its first paint; its script's hash is allowed as the build's
    are (api/middleware.inline_script_hashes)."""
    return _TAKE_OVER.sub(lambda start: _AFTER_PAINT.format(src=start.group(1)), page, count=1)
