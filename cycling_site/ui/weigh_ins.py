"""The dashboard's weight-submission banner (spec 1 section 2): per owed weight a title, a countdown in days,
hours, minutes and seconds, and Submit; the deadline warnings; the dialog that takes the weight and its
photo or video proof."""

import reflex as rx

from components.countdown import countdown
from components.dialog_focus import RETURN_FOCUS
from cycling_site.messages import weigh_ins as msg
from cycling_site.services.weigh_ins import MAX_PROOF_BYTES, WEIGHT_MAX, WEIGHT_MIN
from cycling_site.state.weigh_ins import PROOF_UPLOAD, WeighInState
from cycling_site.ui.forms import (
    drop_zone,
    field,
    field_error,
    form_alert,
    live_input,
    rejection_codes,
    submit_button,
)
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

State = WeighInState
PROOF_ACCEPT = {
    "image/jpeg": [".jpg", ".jpeg"],
    "image/png": [".png"],
    "video/mp4": [".mp4"],
    "video/quicktime": [".mov"],
    "video/webm": [".webm"],
}


def _card(item: rx.Var) -> rx.Component:
    key = item["key"]
    time_left = rx.text(
        "Closes in ",
        rx.text(
            countdown(
                date=item["end_time"],
                display="dhms",
                on_complete=State.window_ended(key),
                key=key + "|" + item["end_time"],
            ),
            as_="span",
            class_name="weigh-in-time",
            font_weight="800",
            font_variant_numeric="tabular-nums",
            color=COLOR["text"],
        ),
        role="timer",
        class_name="weigh-in-countdown",
        font_size=SIZE["sm"],
        color=COLOR["muted"],
    )
    return rx.flex(
        rx.hstack(
            rx.icon("scale", size=28, color=COLOR["accent_dark"], flex_shrink="0"),
            rx.vstack(
                rx.heading(
                    item["title"],
                    as_="h2",
                    class_name="weigh-in-title",
                    font_size=SIZE["md"],
                    line_height="1.3",
                ),
                time_left,
                spacing="1",
                align="start",
            ),
            spacing="3",
            align="center",
        ),
        submit_button(
            msg.SUBMIT,
            State.started.contains(key),
            type="button",
            on_click=State.open_dialog(key),
            class_name="weigh-in-submit",
            width=rx.breakpoints(initial="100%", sm="auto"),
        ),
        direction=rx.breakpoints(initial="column", sm="row"),
        justify="between",
        align=rx.breakpoints(initial="stretch", sm="center"),
        gap=SPACE["3"],
        class_name="weigh-in-item",
        data_key=key,
        width="100%",
        padding=f"{SPACE['4']} {SPACE['5']}",
        background=COLOR["accent_soft"],
        border=f"1px solid {COLOR['accent']}",
        border_left=f"6px solid {COLOR['accent']}",
        border_radius=RADIUS["md"],
    )


def _item(item: rx.Var) -> rx.Component:
    """An item shows from its start, by the page's clock; until then only its countdown to the start runs."""
    key = item["key"]
    return rx.fragment(
        countdown(
            date=item["start_time"],
            display="hidden",
            on_complete=State.window_started(key),
            key=key + "|" + item["start_time"],
        ),
        rx.cond(State.started.contains(key), _card(item)),
    )


def _warning(text: rx.Var) -> rx.Component:
    return rx.hstack(
        rx.icon("triangle-alert", size=18, flex_shrink="0"),
        rx.text(text, font_size=SIZE["sm"], font_weight="600", flex="1"),
        rx.icon_button(
            rx.icon("x", size=16),
            on_click=State.dismiss_warning(text),
            variant="ghost",
            color=COLOR["warning"],
            aria_label="Dismiss",
            cursor="pointer",
        ),
        role="alert",
        class_name="weigh-in-warning",
        align="center",
        spacing="3",
        width="100%",
        padding=f"{SPACE['3']} {SPACE['4']}",
        background=COLOR["warning_soft"],
        color=COLOR["warning"],
        border_left=f"4px solid {COLOR['warning']}",
        border_radius=RADIUS["sm"],
    )


def _proof_field() -> rx.Component:
    return rx.box(
        rx.text(msg.PROOF_LABEL, font_weight="600", font_size=SIZE["sm"], margin_bottom=SPACE["1"]),
        drop_zone(
            State.proof_sending,
            "camera",
            rx.cond(
                State.proof_name != "",
                rx.el.span(State.proof_name, id="weight-proof-name"),
                rx.fragment(msg.CHOOSE_PROOF),
            ),
            msg.PROOF_HINT,
            id=PROOF_UPLOAD,
            accept=PROOF_ACCEPT,
            max_files=1,
            max_size=MAX_PROOF_BYTES,
            multiple=False,
            disabled=State.proof_sending,
            on_drop=State.upload_proof(rx.upload_files(upload_id=PROOF_UPLOAD)),
            on_drop_rejected=lambda rejections: State.proof_rejected(rejection_codes(rejections)),
            aria_label="Choose the photo or video of your weigh-in",
        ),
        field_error(State.errors, "proof"),
        width="100%",
    )


def _dialog() -> rx.Component:
    # A text field with the decimal keypad: what the rider types reaches the rules as typed (25-200, 0.1).
    weight = live_input(
        "weight",
        State.set_weight,
        input_mode="decimal",
        placeholder=f"{WEIGHT_MIN}-{WEIGHT_MAX}",
        auto_complete="off",
        default_value=State.weight,
    )
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(State.open_title),
            rx.dialog.description(msg.DIALOG_TEXT, font_size=SIZE["sm"], color=COLOR["muted"]),
            rx.vstack(
                form_alert(State.open_warning, tone="warning", id="weigh-in-closed"),
                form_alert(State.form_error, id="weigh-in-error"),
                field(msg.WEIGHT_LABEL, "weight", weight, State.errors),
                _proof_field(),
                rx.flex(
                    rx.dialog.close(
                        rx.button(
                            "Cancel", variant="soft", color_scheme="gray", size="3", id="weigh-in-cancel"
                        )
                    ),
                    submit_button(
                        msg.SUBMIT,
                        State.can_submit & ~State.proof_sending,
                        State.submitting,
                        type="button",
                        width="auto",
                        on_click=State.submit,
                        id="weigh-in-send",
                    ),
                    gap=SPACE["3"],
                    justify="end",
                    wrap="wrap",
                    width="100%",
                ),
                spacing="4",
                margin_top=SPACE["4"],
                width="100%",
            ),
            id="weigh-in-dialog",
            max_width="480px",
            **RETURN_FOCUS,
        ),
        open=State.dialog_open,
        on_open_change=State.set_dialog_open,
    )


def weigh_in_banner() -> rx.Component:
    """Between the profile header and the tabs. Its own box takes no room: warnings and items sit in the
    dashboard's column like its other sections. Its items are read with the page's load, before the
    dashboard shows, so they never push the tabs down once shown."""
    return rx.box(
        rx.foreach(State.warnings, _warning),
        rx.foreach(State.items, _item),
        _dialog(),
        id="weigh-ins",
        display="contents",
    )
