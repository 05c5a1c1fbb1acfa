"""The review console both race control's and finance's pages are made of: queue tabs with their pending
counts, the status filter, the item cards (details, files, decision history), the decision dialog and the
refusal for everyone else.

The widgets take the page's console state, whose vars and handlers come from `ReviewConsoleBase`.
"""

import reflex as rx

from cycling_site.messages import race_control as msg
from cycling_site.routes import path_of
from cycling_site.services.race_control import REASON_MAX
from cycling_site.state.review_console import (
    STATUSES,
    Decision,
    ProofFile,
    QueueTab,
    ReviewConsoleBase,
    ReviewItem,
)
from cycling_site.ui.feedback import loading_line, primary_link, status_panel
from cycling_site.ui.forms import INPUT_STYLE, form_alert
from cycling_site.ui.layout import card
from cycling_site.ui.theme import COLOR, RADIUS, SIZE, SPACE

STATUS_COLOR = {"pending": "amber", "approved": "green", "rejected": "red"}
STATUS_LABEL = {"pending": "Pending", "approved": "Approved", "rejected": "Rejected"}
Label = str | rx.Var


def tab_button(
    title: Label, chosen: rx.Var, on_click: rx.event.EventSpec, tab_id: Label, count=None
) -> rx.Component:
    """One tab of the console; a queue's tab shows how many items wait in it."""
    badge = (
        # Solid on the chosen tab's dark ground: a soft badge's tint is translucent and went dark with it.
        rx.badge(
            count,
            color_scheme=rx.cond(count > 0, "orange", "gray"),
            variant=rx.cond(chosen, "solid", "soft"),
            radius="full",
        )
        if count is not None
        else rx.fragment()
    )
    return rx.button(
        title,
        badge,
        on_click=on_click,
        variant=rx.cond(chosen, "solid", "outline"),
        color_scheme="gray",
        high_contrast=True,
        aria_pressed=rx.cond(chosen, "true", "false"),
        id=tab_id,
        cursor="pointer",
        size="2",
    )


def queue_tabs(state: type[ReviewConsoleBase], *more_tabs: rx.Component) -> rx.Component:
    def queue_tab(tab: QueueTab) -> rx.Component:
        return tab_button(
            tab.title, state.kind == tab.kind, state.choose_queue(tab.kind), "queue-" + tab.kind, tab.pending
        )

    return rx.flex(rx.foreach(state.tabs, queue_tab), *more_tabs, gap=SPACE["2"], wrap="wrap", id="queues")


def status_filter(state: type[ReviewConsoleBase]) -> rx.Component:
    return rx.flex(
        rx.segmented_control.root(
            *(rx.segmented_control.item(STATUS_LABEL[status], value=status) for status in STATUSES),
            value=state.status,
            on_change=state.choose_status,
            id="status-filter",
        ),
        rx.cond(state.loading, rx.spinner(size="2")),
        gap=SPACE["3"],
        align="center",
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


def _history_line(entry: Decision) -> rx.Component:
    return rx.text(
        rx.text.strong(entry.decided_by),
        " " + entry.decision + " on " + entry.decided_at,
        rx.cond(entry.reason != "", " · “" + entry.reason + "”", ""),
        font_size=SIZE["xs"],
        color=COLOR["muted"],
        class_name="item-history",
    )


def history_list(entries: rx.Var) -> rx.Component:
    """Who decided the item, when, what and why, oldest first."""
    return rx.cond(entries.length() > 0, rx.vstack(rx.foreach(entries, _history_line), spacing="1"))


def review_item(state: type[ReviewConsoleBase], item: ReviewItem) -> rx.Component:
    def file_button(file: ProofFile) -> rx.Component:
        return rx.button(
            rx.icon("paperclip", size=14),
            file.name,
            on_click=state.open_file(file.id),
            variant="soft",
            color_scheme="gray",
            size="1",
            cursor="pointer",
            max_width="100%",
            class_name="item-file",
        )

    return card(
        rx.vstack(
            rx.flex(
                rx.vstack(
                    rx.text(item.title, font_weight="800", word_break="break-word", class_name="item-title"),
                    rx.text(
                        item.rider_name + " · " + item.rider_email,
                        font_size=SIZE["sm"],
                        color=COLOR["muted"],
                        word_break="break-word",
                        class_name="item-rider",
                    ),
                    rx.text("Sent " + item.submitted_at, font_size=SIZE["xs"], color=COLOR["muted"]),
                    spacing="1",
                    align="start",
                    min_width="0",
                ),
                _status_badge(item.status),
                justify="between",
                gap=SPACE["3"],
                width="100%",
            ),
            rx.grid(
                rx.foreach(item.details, _detail),
                # A phone stacks each label over its value; wider screens put them side by side.
                grid_template_columns=["minmax(0, 1fr)", "minmax(110px, max-content) minmax(0, 1fr)"],
                column_gap=SPACE["4"],
                row_gap=SPACE["1"],
                width="100%",
            ),
            rx.cond(
                item.files.length() > 0,
                rx.flex(rx.foreach(item.files, file_button), gap=SPACE["2"], wrap="wrap"),
            ),
            history_list(item.history),
            rx.cond(
                item.status == "pending",
                rx.flex(
                    rx.button(
                        rx.icon("check", size=16),
                        state.approve_label,
                        on_click=state.ask(item.id, True),
                        color_scheme="green",
                        cursor="pointer",
                        class_name="item-approve",
                    ),
                    rx.button(
                        rx.icon("x", size=16),
                        "Reject",
                        on_click=state.ask(item.id, False),
                        color_scheme="red",
                        variant="outline",
                        cursor="pointer",
                        class_name="item-reject",
                    ),
                    gap=SPACE["3"],
                    wrap="wrap",
                ),
            ),
            spacing="3",
            width="100%",
        ),
        id="item-" + item.id,
        class_name="review-item",
    )


def field_label(text: Label, html_for: str) -> rx.Component:
    return rx.el.label(text, html_for=html_for, font_weight="600", font_size=SIZE["sm"])


def decision_dialog(state: type[ReviewConsoleBase], *more_fields: rx.Component) -> rx.Component:
    """Approve or reject the chosen item: a reason is asked for (required to reject); `more_fields` are
    what a queue's approval needs besides."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(state.deciding_title, word_break="break-word"),
            rx.form(
                rx.vstack(
                    *more_fields,
                    rx.box(
                        field_label(
                            rx.cond(state.deciding_approve, msg.NOTE_LABEL, msg.REASON_LABEL), "reason"
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
                    form_alert(state.decision_error, id="decision-error"),
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
                            rx.cond(state.deciding_approve, state.approve_label, "Reject"),
                            type="submit",
                            loading=state.deciding,
                            color_scheme=rx.cond(state.deciding_approve, "green", "red"),
                            id="decision-confirm",
                        ),
                        gap=SPACE["3"],
                        justify="end",
                        width="100%",
                    ),
                    spacing="4",
                    width="100%",
                ),
                on_submit=state.decide,
                reset_on_submit=False,
                no_validate=True,
            ),
            max_width="480px",
        ),
        open=state.deciding_id != "",
        on_open_change=lambda _open: state.close_decision(),
    )


def empty_panel(text: str, panel_id: str) -> rx.Component:
    return rx.box(
        rx.icon("inbox", size=32, color=COLOR["muted"]),
        rx.text(text, color=COLOR["muted"], text_align="center"),
        id=panel_id,
        display="flex",
        flex_direction="column",
        align_items="center",
        gap=SPACE["2"],
        padding=SPACE["6"],
        width="100%",
        border=f"1px dashed {COLOR['border']}",
        border_radius=RADIUS["md"],
    )


def review_list(state: type[ReviewConsoleBase]) -> rx.Component:
    """The items of the chosen queue and status, or a calm empty panel once it has loaded."""
    return rx.cond(
        state.items.length() > 0,
        rx.vstack(
            rx.foreach(state.items, lambda item: review_item(state, item)),
            spacing="4",
            width="100%",
            id="review-items",
        ),
        rx.cond(~state.loading, empty_panel(msg.EMPTY_QUEUE, "queue-empty")),
    )


def notices(state: type[ReviewConsoleBase]) -> rx.Component:
    return rx.fragment(
        form_alert(state.error, id="console-error"),
        form_alert(state.notice, tone="success", id="console-notice"),
    )


def guarded(state: type[ReviewConsoleBase], refusal: str, console: rx.Component) -> rx.Component:
    """The console for the roles it serves; anyone else is told so (the server refuses them on every event
    too) once their account has been checked."""
    return rx.cond(
        state.allowed,
        console,
        rx.cond(
            state.checked,
            status_panel(
                "danger",
                "Not allowed",
                refusal,
                primary_link("Back to your profile", path_of("new_activities") + "#profile"),
                id="console-refused",
            ),
            card(loading_line("Loading the console...", "console-loading")),
        ),
    )
