"""Race control's console (/race-control): queues with their counts, a status filter, the items with their
details, files and decision history, and the decision dialog."""

import reflex as rx

from cycling_site.messages import race_control as msg
from cycling_site.services import pre_verification
from cycling_site.state.race_control import RaceControlState
from cycling_site.ui.forms import select_input
from cycling_site.ui.layout import heading, page
from cycling_site.ui.review_console import (
    decision_dialog,
    field_label,
    guarded,
    notices,
    queue_tabs,
    review_list,
    status_filter,
)

CATEGORY_OPTIONS = [("", "Choose a category"), *((str(n), f"CAT {n}") for n in pre_verification.CATEGORIES)]


def _category_field() -> rx.Component:
    """Approving a pre-verification gives the rider a category."""
    return rx.cond(
        RaceControlState.asks_category,
        rx.box(
            field_label("Category", "category"), select_input("category", CATEGORY_OPTIONS, ""), width="100%"
        ),
    )


def _console() -> rx.Component:
    return rx.vstack(
        queue_tabs(RaceControlState),
        status_filter(RaceControlState),
        notices(RaceControlState),
        review_list(RaceControlState),
        decision_dialog(RaceControlState, _category_field()),
        spacing="4",
        width="100%",
    )


def race_control_page() -> rx.Component:
    return page(
        heading(msg.CONSOLE_TITLE, msg.CONSOLE_INTRO),
        guarded(RaceControlState, msg.NOT_RACE_CONTROL, _console()),
    )
