"""The build's trimmed stylesheet and its icon file."""

import re
from pathlib import Path

import pytest

from cycling_site.bundling import (
    ANCHOR,
    CHUNK_GROUPS,
    RADIX_LOADER,
    SITE_COLORS,
    SiteColorsThemePlugin,
    drop_radix_loader,
    group_chunks,
)
from cycling_site.settings import PROJECT_ROOT

# Radix Themes 3's colour scales.
RADIX_SCALES = [
    "amber",
    "blue",
    "bronze",
    "brown",
    "crimson",
    "cyan",
    "gold",
    "grass",
    "gray",
    "green",
    "indigo",
    "iris",
    "jade",
    "lime",
    "mauve",
    "mint",
    "olive",
    "orange",
    "pink",
    "plum",
    "purple",
    "red",
    "ruby",
    "sage",
    "sand",
    "sky",
    "slate",
    "teal",
    "tomato",
    "violet",
    "yellow",
]
NAMED_SCALE = re.compile("[\"']({})[\"']".format("|".join(RADIX_SCALES)))


def _sources() -> list[Path]:
    return [*(PROJECT_ROOT / "cycling_site").rglob("*.py"), PROJECT_ROOT / "rxconfig.py"]


def test_every_colour_scale_the_site_names_is_in_its_stylesheet():
    named = {match for path in _sources() for match in NAMED_SCALE.findall(path.read_text())}
    assert named, "no colour scale found: the scan is broken"
    assert named <= set(SITE_COLORS), f"add {sorted(named - set(SITE_COLORS))} to bundling.SITE_COLORS"


def test_the_stylesheet_is_the_site_scales_then_radix_base_tokens_components_and_utilities():
    paths = SiteColorsThemePlugin().get_stylesheet_paths()
    assert [p.rsplit("/", 1)[1] for p in paths[: len(SITE_COLORS)]] == [
        f"{color}.css" for color in SITE_COLORS
    ]
    assert paths[len(SITE_COLORS) :] == (
        "@radix-ui/themes/tokens/base.css",
        "@radix-ui/themes/components.css",
        "@radix-ui/themes/utilities.css",
    )


def test_the_icons_group_is_added_once():
    config = f"output: {{\n        {ANCHOR}\n            {{ test: /env.json/ }},\n          ],\n        }},"
    grouped = group_chunks(config)
    assert grouped.count(CHUNK_GROUPS) == 1 and "lucide-react" in grouped
    assert group_chunks(grouped) == grouped


def test_a_changed_build_template_stops_the_build():
    with pytest.raises(RuntimeError, match="template changed"):
        group_chunks("export default defineConfig({})")
    with pytest.raises(RuntimeError, match="template changed"):
        drop_radix_loader("export function Layout() {}")


def test_the_app_root_loads_no_radix_themes_for_server_sent_components():
    app_root = f"  const loaders = {{\n{RADIX_LOADER}  }};\n"
    assert drop_radix_loader(app_root) == "  const loaders = {\n  };\n"
