"""Where a public page's first screen goes in the HTML the server sends (cycling_site/api/first_screen.py).

The slot is an element whose inner HTML React does not own: hydration leaves what the server put there in
place, so the real content a crawler or a phone saw stays on screen until the page's live data replaces the
slot. A page opened from another page of the site (no server answer) shows its placeholder instead."""

import reflex as rx

from cycling_site.api.first_screen import CLASS, HEAD_MARK, RIDER_SLOT_ID, SLOT_ID
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, FONT, RADIUS, SHADOW, SIZE, SPACE


def _rule(selector: str, **declarations: str) -> str:
    body = ";".join(f"{name.replace('_', '-')}:{value}" for name, value in declarations.items())
    return f"{selector}{{{body}}}"


# As the routes page shows a track's picture (the spec's track image size).
TRACK_IMAGE_RATIO = "1140 / 625"
_HEADING = {name: value for name, value in DISPLAY_HEADING.items() if name != "font_family"}
# The look of the served first screen, close to the page it stands for: cards, headings, muted lines.
STYLE = "".join(
    [
        # While the slot has the server's content, the page's own placeholder after it is not shown.
        _rule(f"#{SLOT_ID}:not(:empty) ~ *", display="none"),
        _rule(f".{CLASS}", display="flex", flex_direction="column", gap=SPACE["5"], width="100%"),
        _rule(
            f".{CLASS} .fs-grid",
            display="grid",
            grid_template_columns="repeat(auto-fill, minmax(280px, 1fr))",
            gap=SPACE["5"],
        ),
        _rule(
            f".{CLASS} .fs-card",
            background=COLOR["card"],
            border_radius=RADIUS["lg"],
            box_shadow=SHADOW["card"],
            padding=SPACE["5"],
            overflow_wrap="anywhere",
        ),
        _rule(
            f".{CLASS} h1,.{CLASS} h2,.{CLASS} h3",
            margin=f"0 0 {SPACE['2']}",
            font_family=FONT["display"],
            **_HEADING,
        ),
        _rule(f".{CLASS} h1", font_size=SIZE["xl"]),
        _rule(f".{CLASS} h2", font_size=SIZE["lg"]),
        _rule(f".{CLASS} h3", font_size=SIZE["lg"]),
        _rule(f".{CLASS} a", color=COLOR["accent_dark"], font_weight="600"),
        _rule(f".{CLASS} h3 a", color=COLOR["text"], text_decoration="none"),
        _rule(f".{CLASS} p", margin=f"0 0 {SPACE['2']}"),
        _rule(f".{CLASS} .fs-muted", color=COLOR["muted"], font_size=SIZE["sm"]),
        _rule(f".{CLASS} .fs-prize", color=COLOR["accent_dark"], font_weight="800"),
        _rule(
            f".{CLASS} img",
            display="block",
            width="100%",
            max_width="360px",
            height="auto",
            aspect_ratio="16 / 9",
            object_fit="cover",
            border_radius=RADIUS["md"],
            margin_bottom=SPACE["3"],
        ),
        _rule(f".{CLASS} .fs-banner", max_width="100%", aspect_ratio="auto"),
        # The pictures and texts a page's largest paint can be at the live page's size, so the live page
        # draws nothing larger over them: a larger paint once the page is live is the page's largest paint,
        # as late as the live data.
        _rule(f".{CLASS} .fs-event-image", max_width="100%", height="200px", aspect_ratio="auto"),
        f"@media (min-width: 48em){{{_rule(f'.{CLASS} .fs-event-image', width='360px', height='270px')}}}",
        _rule(f".{CLASS} .fs-track", padding="0", overflow="hidden"),
        _rule(
            f".{CLASS} .fs-track img",
            max_width="100%",
            aspect_ratio=TRACK_IMAGE_RATIO,
            border_radius="0",
            margin_bottom="0",
        ),
        _rule(f".{CLASS} .fs-track > div", padding=SPACE["5"]),
        _rule(
            f".{CLASS} .fs-track p", margin="0", color=COLOR["muted"], font_size=SIZE["sm"], line_height="1.6"
        ),
        _rule(f".{CLASS} .fs-prose", font_size=SIZE["md"], line_height="1.7"),
        _rule(f".{CLASS} .fs-prose p", margin=f"0 0 {SPACE['4']}"),
        # A link's underline is part of its paragraph's painted size.
        _rule(f".{CLASS} .fs-prose a", text_decoration="underline", text_underline_offset="3px"),
        _rule(f".{CLASS} summary", font_weight="600", cursor="pointer", padding=f"{SPACE['2']} 0"),
    ]
)


def first_screen(placeholder: rx.Component) -> rx.Component:
    """The slot, then the page's placeholder (spinner or outline) for when the slot stays empty."""
    return rx.box(rx.el.style(STYLE), rx.html("", id=SLOT_ID), placeholder, width="100%")


# The rider's avatar or initial in the header, as the rider menu's button shows it.
RIDER_STYLE = _rule(
    f"#{RIDER_SLOT_ID} .fs-avatar",
    display="flex",
    align_items="center",
    justify_content="center",
    width="40px",
    height="40px",
    border_radius=RADIUS["pill"],
    background=COLOR["accent"],
    color="white",
    font_weight="800",
    object_fit="cover",
)


def rider_first_screen() -> rx.Component:
    """The rider's side of the header until the session is known: the server puts a signed-in rider's
    avatar here."""
    return rx.box(
        rx.el.style(RIDER_STYLE),
        rx.html("", id=RIDER_SLOT_ID),
        width="64px",
        height="40px",
        display="flex",
        justify_content="flex-end",
    )


def live_head() -> rx.event.EventSpec:
    """For a page whose live data has its own description: the served one goes, so the head has one."""
    return rx.call_script(f"document.querySelectorAll('head [{HEAD_MARK}]').forEach((tag) => tag.remove())")
