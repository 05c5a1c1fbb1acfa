"""Race control's console (/race-control): queues with their counts, a status filter, the items with their
details, files and decision history, and the decision dialog."""

import reflex as rx

from cycling_site.messages import race_control as msg
from cycling_site.routes import path_of
from cycling_site.services import pre_verification
from cycling_site.services.race_control import REASON_MAX
from cycling_site.state.race_control import STATUSES, Decision, ProofFile, RaceControlState, ReviewItem
from cycling_site.ui.feedback import loading_line, primary_link, status_panel
from cycling_site.ui.forms import INPUT_STYLE, form_alert, select_input
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

STATUS_COLOR = {"pending": "amber", "approved": "green", "rejected": "red"}
STATUS_LABEL = {"pending": "Pending", "approved": "Approved", "rejected": "Rejected"}
CATEGORY_OPTIONS = [("", "Choose a category"), *((str(n), f"CAT {n}") for n in pre_verification.CATEGORIES)]


def _queue_tab(tab) -> rx.Component:
    chosen = RaceControlState.kind == tab.kind
    return rx.button(
        tab.title,
        rx.badge(tab.pending, color_scheme=rx.cond(tab.pending > 0, "orange", "gray"), radius="full"),
        on_click=RaceControlState.choose_queue(tab.kind),
        variant=rx.cond(chosen, "solid", "outline"),
        color_scheme="gray",
        high_contrast=True,
        aria_pressed=rx.cond(chosen, "true", "false"),
        id="queue-" + tab.kind,
        cursor="pointer",
        size="2",
    )


def _status_filter() -> rx.Component:
    return rx.segmented_control.root(
        *(rx.segmented_control.item(STATUS_LABEL[status], value=status) for status in STATUSES),
        value=RaceControlState.status,
        on_change=RaceControlState.choose_status,
        id="status-filter",
    )


def _status_badge(status: rx.Var) -> rx.Component:
    return rx.badge(
        rx.match(status, *STATUS_LABEL.items(), status),
        color_scheme=rx.match(status, *STATUS_COLOR.items(), "gray"),
        size="2",
        class_name="item-status",
    )


def _detail(pair: rx.Var) -> rx.Component:
    """A web link the rider gave opens in a new tab; anything else is shown as text, never as a link."""
    value = pair[1].to(str)
    is_web_link = value.startswith("https://") | value.startswith("http://")
    return rx.fragment(
        rx.text(pair[0], color=COLOR["muted"], font_size=SIZE["sm"]),
        rx.cond(
            is_web_link,
            rx.link(
                value,
                href=value,
                is_external=True,
                rel="noopener noreferrer nofollow",
                font_size=SIZE["sm"],
                word_break="break-all",
                color=COLOR["accent_dark"],
            ),
            rx.text(value, font_size=SIZE["sm"], word_break="break-word"),
        ),
    )


def _file(file: ProofFile) -> rx.Component:
    return rx.button(
        rx.icon("paperclip", size=14),
        file.name,
        on_click=RaceControlState.open_file(file.id),
        variant="soft",
        color_scheme="gray",
        size="1",
        cursor="pointer",
        class_name="item-file",
    )


def _history_line(entry: Decision) -> rx.Component:
    return rx.text(
        rx.text.strong(entry.decided_by),
        " " + entry.decision + " on " + entry.decided_at,
        rx.cond(entry.reason != "", " · “" + entry.reason + "”", ""),
        font_size=SIZE["xs"],
        color=COLOR["muted"],
        class_name="item-history",
    )


def _item(item: ReviewItem) -> rx.Component:
    return card(
        rx.vstack(
            rx.flex(
                rx.vstack(
                    rx.text(item.title, font_weight="800", class_name="item-title"),
                    rx.text(
                        item.rider_name + " · " + item.rider_email,
                        font_size=SIZE["sm"],
                        color=COLOR["muted"],
                        class_name="item-rider",
                    ),
                    rx.text("Sent " + item.submitted_at, font_size=SIZE["xs"], color=COLOR["muted"]),
                    spacing="1",
                    align="start",
                ),
                _status_badge(item.status),
                justify="between",
                gap=SPACE["3"],
                width="100%",
            ),
            rx.grid(
                rx.foreach(item.details, _detail),
                grid_template_columns="minmax(110px, max-content) 1fr",
                column_gap=SPACE["4"],
                row_gap=SPACE["1"],
                width="100%",
            ),
            rx.cond(
                item.files.length() > 0, rx.flex(rx.foreach(item.files, _file), gap=SPACE["2"], wrap="wrap")
            ),
            rx.cond(
                item.history.length() > 0, rx.vstack(rx.foreach(item.history, _history_line), spacing="1")
            ),
            rx.cond(
                item.status == "pending",
                rx.flex(
                    rx.button(
                        rx.icon("check", size=16),
                        "Approve",
                        on_click=RaceControlState.ask(item.id, True),
                        color_scheme="green",
                        cursor="pointer",
                        class_name="item-approve",
                    ),
                    rx.button(
                        rx.icon("x", size=16),
                        "Reject",
                        on_click=RaceControlState.ask(item.id, False),
                        color_scheme="red",
                        variant="outline",
                        cursor="pointer",
                        class_name="item-reject",
                    ),
                    gap=SPACE["3"],
                ),
            ),
            spacing="3",
            width="100%",
        ),
        id="item-" + item.id,
        class_name="review-item",
    )


def _decision_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(RaceControlState.deciding_title),
            rx.form(
                rx.vstack(
                    rx.cond(
                        RaceControlState.asks_category,
                        rx.box(
                            rx.el.label(
                                "Category", html_for="category", font_weight="600", font_size=SIZE["sm"]
                            ),
                            select_input("category", CATEGORY_OPTIONS, ""),
                            width="100%",
                        ),
                    ),
                    rx.box(
                        rx.el.label(
                            rx.cond(
                                RaceControlState.deciding_approve,
                                "Note for the rider (optional)",
                                msg.REASON_LABEL,
                            ),
                            html_for="reason",
                            font_weight="600",
                            font_size=SIZE["sm"],
                        ),
                        rx.el.textarea(
                            id="reason",
                            name="reason",
                            rows=3,
                            max_length=REASON_MAX,
                            style={**INPUT_STYLE, "height": "auto", "padding": SPACE["3"]},
                        ),
                        width="100%",
                    ),
                    form_alert(RaceControlState.decision_error, id="decision-error"),
                    rx.flex(
                        rx.dialog.close(
                            rx.button(
                                "Cancel",
                                type="button",
                                variant="soft",
                                color_scheme="gray",
                                id="decision-cancel",
                            )
                        ),
                        rx.button(
                            rx.cond(RaceControlState.deciding_approve, "Approve", "Reject"),
                            type="submit",
                            loading=RaceControlState.deciding,
                            color_scheme=rx.cond(RaceControlState.deciding_approve, "green", "red"),
                            id="decision-confirm",
                        ),
                        gap=SPACE["3"],
                        justify="end",
                        width="100%",
                    ),
                    spacing="4",
                    width="100%",
                ),
                on_submit=RaceControlState.decide,
                reset_on_submit=False,
                no_validate=True,
            ),
            max_width="480px",
        ),
        open=RaceControlState.deciding_id != "",
        on_open_change=lambda _open: RaceControlState.close_decision(),
    )


def _console() -> rx.Component:
    return rx.vstack(
        rx.flex(rx.foreach(RaceControlState.tabs, _queue_tab), gap=SPACE["2"], wrap="wrap", id="queues"),
        rx.flex(
            _status_filter(),
            rx.cond(RaceControlState.loading, rx.spinner(size="2")),
            gap=SPACE["3"],
            align="center",
        ),
        form_alert(RaceControlState.error, id="console-error"),
        form_alert(RaceControlState.notice, tone="success", id="console-notice"),
        rx.cond(
            RaceControlState.items.length() > 0,
            rx.vstack(
                rx.foreach(RaceControlState.items, _item), spacing="4", width="100%", id="review-items"
            ),
            rx.cond(
                ~RaceControlState.loading,
                rx.box(
                    rx.icon("inbox", size=32, color=COLOR["muted"]),
                    rx.text(msg.EMPTY_QUEUE, color=COLOR["muted"]),
                    id="queue-empty",
                    display="flex",
                    flex_direction="column",
                    align_items="center",
                    gap=SPACE["2"],
                    padding_y=SPACE["6"],
                    width="100%",
                    border=f"1px dashed {COLOR['border']}",
                    border_radius=RADIUS["md"],
                ),
            ),
        ),
        _decision_dialog(),
        spacing="4",
        width="100%",
    )


def race_control_page() -> rx.Component:
    return page(
        heading(msg.CONSOLE_TITLE, msg.CONSOLE_INTRO),
        rx.cond(
            RaceControlState.allowed,
            _console(),
            rx.cond(
                RaceControlState.checked,
                status_panel(
                    "danger",
                    "Not allowed",
                    msg.NOT_RACE_CONTROL,
                    primary_link("Back to your profile", path_of("new_activities") + "#profile"),
                    id="console-refused",
                ),
                card(loading_line("Loading the console...", "console-loading")),
            ),
        ),
    )
