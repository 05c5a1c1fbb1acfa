"""The Connections panel: connect or disconnect fitness apps (the profile's Connections tab)."""

import reflex as rx

from cycling_site.messages import connections as msg
from cycling_site.state.connections import AppCard, ConnectionsState
from cycling_site.ui.forms import field, form_alert, text_input
from cycling_site.ui.theme import COLOR, PRIMARY_BUTTON, RADIUS, SIZE, SPACE

LOADING_ROWS = 4


def _badge(name: rx.Var) -> rx.Component:
    return rx.center(
        rx.text(name.to(str)[0], font_weight="800", font_size=SIZE["lg"]),
        width="44px",
        height="44px",
        flex_shrink="0",
        border_radius=RADIUS["md"],
        background=COLOR["accent_soft"],
        color=COLOR["accent_dark"],
        aria_hidden="true",
    )


def _status(app: AppCard) -> rx.Component:
    return rx.cond(
        app.connected,
        rx.hstack(
            rx.icon("circle-check", size=16, color=COLOR["success"]),
            rx.text(
                rx.cond(app.external_user != "", msg.connected_as(app.external_user), msg.CONNECTED_LABEL),
                color=COLOR["success"],
                font_size=SIZE["sm"],
                font_weight="600",
                class_name="app-status",
            ),
            spacing="1",
            align="center",
        ),
        rx.text(msg.NOT_CONNECTED_LABEL, color=COLOR["muted"], font_size=SIZE["sm"], class_name="app-status"),
    )


def _action(app: AppCard) -> rx.Component:
    busy = ConnectionsState.busy == app.network
    return rx.cond(
        app.connected,
        rx.button(
            "Disconnect",
            on_click=ConnectionsState.ask_disconnect(app.network),
            variant="outline",
            color_scheme="red",
            size="3",
            loading=busy,
            cursor="pointer",
            aria_label=f"Disconnect {app.name}",
        ),
        rx.cond(
            app.uses_password,
            rx.fragment(),
            rx.cond(
                app.terms_page != "",
                # AnalogX: its terms page first, which sends the rider on once they are accepted.
                _connect_button(
                    app, rx.link("Connect", href=app.terms_page, underline="none"), as_child=True
                ),
                _connect_button(app, "Connect", loading=busy, on_click=ConnectionsState.connect(app.network)),
            ),
        ),
    )


def _connect_button(app: AppCard, label: str | rx.Component, **props) -> rx.Component:
    return rx.button(
        label,
        size="3",
        disabled=ConnectionsState.busy != "",
        **PRIMARY_BUTTON,
        aria_label=f"Connect {app.name}",
        **props,
    )


def _xert_form() -> rx.Component:
    errors = ConnectionsState.xert_errors
    return rx.form(
        rx.vstack(
            rx.text(msg.XERT_HINT, color=COLOR["muted"], font_size=SIZE["sm"]),
            form_alert(ConnectionsState.xert_form_error, id="xert-error"),
            rx.grid(
                field(
                    "Username",
                    "username",
                    text_input("username", auto_complete="off", max_length=200),
                    errors,
                ),
                field(
                    "Password",
                    "password",
                    text_input("password", "password", auto_complete="off", max_length=200),
                    errors,
                ),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="3",
                width="100%",
            ),
            rx.button(
                "Link Xert",
                type="submit",
                id="xert-submit",
                size="3",
                loading=ConnectionsState.xert_submitting,
                **PRIMARY_BUTTON,
                width=["100%", "auto"],
            ),
            spacing="3",
            width="100%",
        ),
        on_submit=ConnectionsState.link_xert,
        reset_on_submit=False,
        no_validate=True,
        width="100%",
        id="xert-form",
    )


def _app_row(app: AppCard) -> rx.Component:
    return rx.box(
        rx.flex(
            rx.hstack(
                _badge(app.name),
                rx.vstack(
                    rx.text(app.name, font_weight="700", font_size=SIZE["md"], class_name="app-name"),
                    _status(app),
                    spacing="0",
                    min_width="0",
                ),
                spacing="3",
                align="center",
                min_width="0",
            ),
            _action(app),
            justify="between",
            align="center",
            gap=SPACE["3"],
            wrap="wrap",
            width="100%",
        ),
        rx.cond(
            app.uses_password & ~app.connected,
            rx.box(_xert_form(), margin_top=SPACE["4"], width="100%"),
        ),
        id="app-" + app.network,
        class_name="app-row",
        border=f"1px solid {COLOR['border']}",
        border_radius=RADIUS["md"],
        padding=SPACE["4"],
        width="100%",
    )


def _loading_rows() -> rx.Component:
    return rx.vstack(
        *[
            rx.skeleton(rx.box(height="78px", width="100%"), loading=True, width="100%")
            for _ in range(LOADING_ROWS)
        ],
        spacing="3",
        width="100%",
        aria_busy="true",
        id="connections-loading",
    )


def _confirm_dialog() -> rx.Component:
    name = ConnectionsState.confirming_name
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(msg.confirm_title(name)),
            rx.alert_dialog.description(
                msg.confirm_text(name),
                color=COLOR["muted"],
            ),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button("Cancel", variant="soft", color_scheme="gray", size="3", cursor="pointer")
                ),
                rx.button(
                    "Disconnect",
                    on_click=ConnectionsState.disconnect(ConnectionsState.confirming),
                    color_scheme="red",
                    size="3",
                    loading=ConnectionsState.busy != "",
                    cursor="pointer",
                    id="confirm-disconnect",
                ),
                justify="end",
                gap=SPACE["3"],
                margin_top=SPACE["5"],
            ),
            max_width="440px",
        ),
        open=ConnectionsState.confirming != "",
        on_open_change=ConnectionsState.dialog_open_change,
    )


def connections_panel() -> rx.Component:
    """External apps: connect or disconnect; removal is confirmed first (spec 2 section 4)."""
    return rx.vstack(
        rx.text(msg.INTRO, color=COLOR["muted"]),
        form_alert(ConnectionsState.error, id="connections-error"),
        rx.cond(
            ConnectionsState.loaded,
            rx.cond(
                ConnectionsState.apps.length() > 0,
                rx.vstack(rx.foreach(ConnectionsState.apps, _app_row), spacing="3", width="100%"),
                rx.text(msg.NO_APPS, color=COLOR["muted"], id="connections-empty"),
            ),
            _loading_rows(),
        ),
        _confirm_dialog(),
        on_mount=ConnectionsState.load,
        spacing="4",
        width="100%",
        id="connections-panel",
    )
