"""Form pieces: a labelled field with its message, the form-level alert, the submit button."""

from typing import Any

import reflex as rx
from reflex.vars import ArrayVar, FunctionStringVar, ObjectVar

from cycling_site.messages.site import UPLOADING
from cycling_site.routes import path_of
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

INPUT_STYLE = {
    "width": "100%",
    "height": "44px",
    "padding": f"0 {SPACE['3']}",
    "border": f"1px solid {COLOR['border']}",
    "border_radius": RADIUS["sm"],
    "background": COLOR["card"],
    "font_size": SIZE["md"],
    "color": COLOR["text"],
    "_focus": {"border_color": COLOR["accent"], "outline": "none", "box_shadow": "0 0 0 3px #FFD9CA"},
}


TEXT_AREA_STYLE = {**INPUT_STYLE, "height": "auto", "padding": SPACE["3"], "resize": "vertical"}


def error_marks(errors: rx.Var, name: str) -> dict:
    """Marks a field with an error for screen readers (and its message) and with a red border."""
    has_error = errors.contains(name)
    return {
        "aria_invalid": rx.cond(has_error, "true", "false"),
        "aria_describedby": f"{name}-error",
        "border_color": rx.cond(has_error, COLOR["danger"], COLOR["border"]),
    }


def field_error(errors: rx.Var, name: str) -> rx.Component:
    return rx.cond(
        errors.contains(name),
        rx.text(
            errors[name].to(str),
            id=f"{name}-error",
            role="alert",
            color=COLOR["danger"],
            font_size=SIZE["sm"],
            margin_top=SPACE["1"],
        ),
    )


def field(label: str, name: str, control: rx.Component, errors: rx.Var) -> rx.Component:
    return rx.box(
        rx.el.label(
            label,
            html_for=name,
            display="block",
            font_weight="600",
            font_size=SIZE["sm"],
            margin_bottom=SPACE["1"],
        ),
        control,
        field_error(errors, name),
        width="100%",
    )


# How long after the last key the server hears a live field: one event per pause, not one per key.
LIVE_DEBOUNCE_MS = 300

# What the amount fields keep of a keystroke (spec 3 section 2): digits and the first decimal point, kept in
# the browser, so the field never waits for the server to say what it holds.
KEEP_AMOUNT = FunctionStringVar.create(
    """((value, event) => {
  let point = false;
  const keep = (c) => (c >= "0" && c <= "9") || (c === "." && !point && (point = true));
  const kept = [...value].filter(keep).join("");
  if (kept !== value) event.target.value = kept;
})"""
)


def text_input(name: str, input_type: str = "text", **props) -> rx.Component:
    return rx.el.input(id=name, name=name, type=input_type, style=INPUT_STYLE, **props)


def live_input(
    name: str, on_value, input_type: str = "text", keep: FunctionStringVar | None = None, **props
) -> rx.Component:
    """A field whose value the server follows as it is typed (a fee, a code's number) without ever setting
    it: the field keeps its own value in the browser, so a rider 300 ms away loses no key to the echo of an
    earlier one. The server hears it 300 ms after the last key and again when the field is left, which
    comes before any click elsewhere: an action always sees what the field holds. `on_value` takes the
    text (an event handler or a lambda), and must not mind hearing the same text twice; `keep` filters
    keys in the browser."""
    return text_input(
        name,
        input_type,
        on_change=[
            *([keep] if keep is not None else []),
            lambda value: on_value(value).debounce(LIVE_DEBOUNCE_MS),
        ],
        on_blur=lambda value: on_value(value),
        **props,
    )


def select_input(name: str, options: rx.Var | list, default_value: str, **props) -> rx.Component:
    """A native select: keyboard- and phone-friendly with long lists such as countries."""
    return rx.el.select(
        rx.foreach(options, lambda option: rx.el.option(option[1], value=option[0])),
        id=name,
        name=name,
        default_value=default_value,
        style=INPUT_STYLE,
        **props,
    )


def checkbox_field(name: str, *text: rx.Component | str, **checkbox_props) -> rx.Component:
    """A checkbox with its text; the whole line ticks it, and the text is the checkbox's name (the
    checkbox is a button, which a wrapping label does not name for every screen reader)."""
    return rx.el.label(
        rx.checkbox(name=name, id=name, aria_labelledby=f"{name}-label", **checkbox_props),
        rx.text(*text, font_size=SIZE["sm"], id=f"{name}-label"),
        display="flex",
        gap=SPACE["2"],
        align_items="center",
        cursor="pointer",
    )


def terms_agreement(name: str) -> rx.Component:
    """The "I agree to the terms and conditions" checkbox, its link opening the terms in a new tab."""
    return checkbox_field(
        name,
        "I agree to the ",
        rx.link("terms and conditions", href=path_of("terms"), color=COLOR["accent_dark"], is_external=True),
    )


def form_alert(message: rx.Var, tone: str = "danger", **props) -> rx.Component:
    return rx.cond(
        message != "",
        rx.box(
            rx.text(message, font_size=SIZE["sm"], font_weight="500"),
            role="alert",
            background=COLOR[f"{tone}_soft"],
            color=COLOR[tone],
            border_left=f"4px solid {COLOR[tone]}",
            padding=f"{SPACE['3']} {SPACE['4']}",
            border_radius=RADIUS["sm"],
            width="100%",
            **props,
        ),
    )


def submit_button(label: str, enabled: rx.Var, loading: rx.Var | bool = False, **props) -> rx.Component:
    """Disabled until the page is live as well: pressed earlier, the browser would post the form itself and
    lose what was typed. A page slow to go live, or an answer slow to come, is told by the site-wide watch
    (components/action_watch.py). `props` may replace the type and the width (a button that opens a
    dialog, one beside another)."""
    enabled = rx.State.is_hydrated & enabled
    props = {"type": "submit", "width": "100%", **props}
    return rx.button(
        label,
        disabled=~enabled,
        loading=loading,
        size="3",
        background=rx.cond(enabled, COLOR["accent"], "#F3B49C"),
        color="white",
        font_weight="700",
        letter_spacing="0.04em",
        text_transform="uppercase",
        cursor=rx.cond(enabled, "pointer", "not-allowed"),
        _hover={"background": rx.cond(enabled, COLOR["accent_dark"], "#F3B49C")},
        **props,
    )


def rejection_codes(rejections: rx.Var) -> rx.Var:
    """The codes of files an upload refused; only they go to the server, never the refused file itself."""
    return (
        rejections.to(ArrayVar, list[dict[str, Any]])
        .map(
            lambda rejection: (
                rejection.to(ObjectVar, dict[str, Any])["errors"]
                .to(ArrayVar, list[dict[str, str]])
                .map(lambda error: error.to(ObjectVar, dict[str, str])["code"])
                .join(",")
            )
        )
        .join(",")
    )


FOCUS_RING = {"outline": f"2px solid {COLOR['accent']}", "outline_offset": "2px"}


def file_drop(
    *children: rx.Component, aria_label: str | rx.Var, button_inside: bool = False, **props
) -> rx.Component:
    """A drop zone and file picker whose file input is the keyboard's stop: a native file input, named by
    the zone's label, opens the chooser on Enter or Space, and the zone shows the focus ring. The zone itself
    stays out of the tab order (a focusable div has no role to announce). A zone drawn as a button has that
    button as its stop instead."""
    upload = rx.upload.root(
        *children,
        aria_label=aria_label,
        no_keyboard=True,
        style={**props.pop("style", {}), "&:has(input:focus-visible)": FOCUS_RING},
        **props,
    )
    zone = upload.children[0]
    file_input = zone.children[0]
    file_input.custom_attrs["aria-label"] = aria_label
    if not button_inside:
        # After react-dropzone's own props, which take the input out of the tab order.
        file_input.special_props.append(rx.Var.create({"tabIndex": 0}))
    return upload


# A dashed zone that files are dropped on.
_DROP_ZONE_STYLE = {
    "width": "100%",
    "border": f"2px dashed {COLOR['border']}",
    "border_radius": RADIUS["md"],
    "background": COLOR["surface"],
    "_hover": {"border_color": COLOR["accent"]},
}


def drop_zone(
    sending: rx.Var, icon: str, line: rx.Var | rx.Component | str, hint: str, **file_drop_props
) -> rx.Component:
    """A dashed file_drop showing its icon (a spinner while a file is on its way), its line and its hint.
    The line is a span: a bold paragraph over a small one reads as a false heading (axe p-as-heading)."""
    shown = line if isinstance(line, rx.Component) else rx.fragment(line)
    face = rx.vstack(
        rx.cond(sending, rx.spinner(size="3"), rx.icon(icon, size=22, color=COLOR["accent_dark"])),
        rx.text(
            rx.cond(sending, rx.fragment(UPLOADING), shown),
            as_="span",
            font_weight="600",
            overflow_wrap="anywhere",
        ),
        rx.text(hint, font_size=SIZE["xs"], color=COLOR["muted"]),
        align="center",
        text_align="center",
        spacing="1",
        padding=SPACE["4"],
        width="100%",
        cursor="pointer",
    )
    return file_drop(face, **_DROP_ZONE_STYLE, **file_drop_props)
