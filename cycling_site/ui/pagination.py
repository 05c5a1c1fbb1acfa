"""The one pagination of the paged lists (wallet transactions, teams): Previous, the window of page
numbers the state works out, Next; shown only when there is a page 2."""

import reflex as rx

from cycling_site.ui.theme import COLOR


def _page_button(state: type[rx.State], label: rx.Component | rx.Var | str, target: rx.Var, **props):
    return rx.button(
        label,
        on_click=state.go_to_page(target),
        variant="soft",
        color_scheme="gray",
        size="2",
        min_width="36px",
        cursor="pointer",
        **props,
    )


def pagination(
    state: type[rx.State],
    previous: rx.Component | str,
    next_: rx.Component | str,
    label: str,
    nav_id: str,
) -> rx.Component:
    """`state` has current_page, last_page, pages (the window) and a go_to_page(page) event."""

    def number(page: rx.Var) -> rx.Component:
        return rx.cond(
            page == state.current_page,
            rx.button(
                page,
                size="2",
                min_width="36px",
                background=COLOR["accent"],
                aria_current="page",
                class_name="page-number page-current",
            ),
            _page_button(state, page.to_string(), page, class_name="page-number", aria_label=f"Page {page}"),
        )

    return rx.cond(
        state.last_page > 1,
        rx.el.nav(
            rx.hstack(
                _page_button(
                    state,
                    previous,
                    state.current_page - 1,
                    disabled=state.current_page <= 1,
                    aria_label="Previous page",
                    id="page-prev",
                ),
                rx.foreach(state.pages, number),
                _page_button(
                    state,
                    next_,
                    state.current_page + 1,
                    disabled=state.current_page >= state.last_page,
                    aria_label="Next page",
                    id="page-next",
                ),
                spacing="2",
                justify="center",
                wrap="wrap",
            ),
            id=nav_id,
            aria_label=label,
            width="100%",
            display="flex",
            justify_content="center",
        ),
    )
