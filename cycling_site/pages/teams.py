"""Teams (spec 2 section 2): the public card grid (/teams) and the rider's joined and owned teams
(/my-teams), with creating, joining and leaving a team."""

import reflex as rx

from components.country_flag import country_flag
from cycling_site.messages import teams as msg
from cycling_site.models.teams import DESCRIPTION_MAX
from cycling_site.routes import path_of
from cycling_site.state.session import SessionState, login_url
from cycling_site.state.teams import COUNTRY_OPTIONS, JOINED, OWNED, TeamsState
from cycling_site.ui.feedback import loading_line, primary_link
from cycling_site.ui.first_screen import first_screen
from cycling_site.ui.forms import (
    TEXT_AREA_STYLE,
    error_marks,
    field,
    form_alert,
    select_input,
    submit_button,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.links import link_button
from cycling_site.ui.pagination import pagination
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SHADOW, SIZE, SPACE

State = TeamsState
GRID_COLUMNS = rx.breakpoints(initial="1", sm="2", lg="3")
FLAG_HEIGHT = 30


def _flag(team: rx.Var) -> rx.Component:
    placeholder = rx.center(
        rx.icon("flag", size=18, color=COLOR["muted"]),
        class_name="team-flag-placeholder",
        aria_label="No flag",
        role="img",
        width=f"{FLAG_HEIGHT * 4 // 3}px",
        height=f"{FLAG_HEIGHT}px",
        background=COLOR["surface"],
        border=f"1px dashed {COLOR['border']}",
        border_radius="3px",
        flex_shrink="0",
    )
    return rx.cond(
        team["country"] != "",
        rx.box(
            country_flag(code=team["country"], name=team["country_name"], height=FLAG_HEIGHT),
            class_name="team-flag",
            min_width=f"{FLAG_HEIGHT * 4 // 3}px",
            height=f"{FLAG_HEIGHT}px",
            flex_shrink="0",
        ),
        placeholder,
    )


def _name(team: rx.Var) -> rx.Component:
    title = rx.heading(
        team["name"], as_="h2", class_name="team-name", font_size=SIZE["lg"], **DISPLAY_HEADING
    )
    return rx.cond(
        team["link"] != "",
        rx.link(title, href=team["link"], is_external=True, color=COLOR["text"], class_name="team-link"),
        title,
    )


def _action(team: rx.Var) -> rx.Component:
    """Join or Leave for a signed-in rider; a visitor is sent to sign in first."""
    busy = State.acting_on == team["id"]
    common = {"size": "2", "loading": busy, "disabled": State.acting_on != "", "cursor": "pointer"}
    return rx.cond(
        State.rider_known,
        rx.cond(
            team["member"] == "yes",
            rx.button(
                rx.icon("log-out", size=14),
                msg.LEAVE,
                on_click=State.leave(team["id"]),
                variant="soft",
                color_scheme="gray",
                class_name="team-leave",
                aria_label=f"{msg.LEAVE} " + team["name"],
                **common,
            ),
            rx.button(
                rx.icon("user-plus", size=14),
                msg.JOIN,
                on_click=State.join(team["id"]),
                background=COLOR["accent"],
                color="white",
                class_name="team-join",
                aria_label=f"{msg.JOIN} " + team["name"],
                **common,
            ),
        ),
        link_button(
            msg.JOIN,
            href=login_url("session_expired", path_of("teams")),
            size="2",
            variant="soft",
            cursor="pointer",
            class_name="team-sign-in",
        ),
    )


def _badge(text: str, class_name: str) -> rx.Component:
    return rx.badge(text, class_name=class_name, color_scheme="orange", variant="soft", radius="full")


def _team_card(team: rx.Var) -> rx.Component:
    return rx.el.article(
        rx.vstack(
            rx.hstack(
                _flag(team),
                rx.vstack(
                    _name(team),
                    rx.hstack(
                        rx.cond(team["owner"] == "yes", _badge(msg.OWNER, "team-owner")),
                        rx.cond(
                            (team["member"] == "yes") & (team["owner"] != "yes"),
                            _badge(msg.JOINED, "team-joined"),
                        ),
                        spacing="2",
                    ),
                    spacing="1",
                    align="start",
                    min_width="0",
                ),
                spacing="3",
                align="center",
                width="100%",
            ),
            rx.text(
                team["description"],
                class_name="team-description",
                color=COLOR["muted"],
                font_size=SIZE["sm"],
                line_height="1.6",
                flex="1",
            ),
            rx.hstack(
                rx.hstack(
                    rx.icon("users", size=16, color=COLOR["accent_dark"]),
                    rx.text(team["members"], class_name="team-member-count", font_weight="800"),
                    rx.text(msg.MEMBERS, color=COLOR["muted"], font_size=SIZE["sm"]),
                    spacing="1",
                    align="center",
                ),
                rx.spacer(),
                rx.cond(
                    team["link"] != "",
                    rx.link(
                        rx.hstack(rx.text(msg.VIEW_EVENTS), rx.icon("external-link", size=14), spacing="1"),
                        href=team["link"],
                        is_external=True,
                        font_size=SIZE["sm"],
                        color=COLOR["accent_dark"],
                        class_name="team-events-link",
                    ),
                ),
                _action(team),
                spacing="3",
                align="center",
                width="100%",
                wrap="wrap",
            ),
            spacing="3",
            height="100%",
            padding=SPACE["5"],
        ),
        class_name="team-card",
        data_team_id=team["id"],
        background=COLOR["card"],
        border_radius=RADIUS["lg"],
        box_shadow=SHADOW["card"],
        border_top=f"4px solid {COLOR['accent']}",
    )


def _skeleton() -> rx.Component:
    return rx.box(
        rx.vstack(
            rx.skeleton(rx.box(height="30px", width="70%"), loading=True),
            rx.skeleton(rx.box(height="56px", width="100%"), loading=True),
            rx.skeleton(rx.box(height="28px", width="40%"), loading=True),
            spacing="3",
            padding=SPACE["5"],
        ),
        background=COLOR["card"],
        border_radius=RADIUS["lg"],
        box_shadow=SHADOW["card"],
    )


def _empty(text: rx.Var | str) -> rx.Component:
    return card(
        rx.hstack(
            rx.icon("users", color=COLOR["accent"]),
            rx.text(text, color=COLOR["muted"], id="teams-empty"),
            spacing="3",
            align="center",
        ),
    )


def _list(empty_text: rx.Var | str) -> rx.Component:
    """Loading, the failure message, the empty message or the grid with its pagination; the grid shows only
    once its content is there (spec)."""
    return rx.cond(
        State.loading,
        first_screen(
            rx.vstack(
                loading_line(msg.LOADING, loading_id="teams-loading"),
                rx.grid(*(_skeleton() for _ in range(3)), columns=GRID_COLUMNS, spacing="5", width="100%"),
                spacing="4",
                width="100%",
            )
        ),
        rx.cond(
            State.load_error != "",
            form_alert(State.load_error, id="teams-error"),
            rx.cond(
                State.teams.length() > 0,
                rx.vstack(
                    rx.grid(
                        rx.foreach(State.teams, _team_card),
                        id="teams-grid",
                        columns=GRID_COLUMNS,
                        spacing="5",
                        width="100%",
                    ),
                    pagination(State, msg.PREVIOUS, msg.NEXT, label="Teams pages", nav_id="teams-pagination"),
                    spacing="5",
                    width="100%",
                ),
                _empty(empty_text),
            ),
        ),
    )


def _create_dialog() -> rx.Component:
    errors = State.create_errors
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.button(
                rx.icon("plus", size=16),
                msg.CREATE_TEAM,
                size="3",
                background=COLOR["accent"],
                color="white",
                font_weight="700",
                cursor="pointer",
                id="create-team",
            )
        ),
        rx.dialog.content(
            rx.dialog.title(msg.CREATE_TITLE),
            rx.dialog.description(msg.CREATE_TEXT, font_size=SIZE["sm"], color=COLOR["muted"]),
            rx.form(
                rx.vstack(
                    form_alert(errors.get("form", ""), id="create-team-error"),
                    field(
                        msg.NAME,
                        "name",
                        text_input("name", auto_complete="off", **error_marks(errors, "name")),
                        errors,
                    ),
                    field(
                        msg.DESCRIPTION,
                        "description",
                        rx.el.textarea(
                            id="description",
                            name="description",
                            rows=4,
                            max_length=DESCRIPTION_MAX,
                            style=TEXT_AREA_STYLE,
                            **error_marks(errors, "description"),
                        ),
                        errors,
                    ),
                    field(
                        msg.COUNTRY,
                        "country",
                        select_input("country", COUNTRY_OPTIONS, "", **error_marks(errors, "country")),
                        errors,
                    ),
                    rx.flex(
                        rx.dialog.close(
                            rx.button(
                                msg.CANCEL,
                                type="button",
                                variant="soft",
                                color_scheme="gray",
                                size="3",
                                id="create-team-cancel",
                            )
                        ),
                        rx.box(
                            submit_button(msg.CREATE_TEAM, rx.Var.create(True), State.creating),
                            id="create-team-submit",
                            min_width="160px",
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
                on_submit=State.create,
                reset_on_submit=False,
            ),
            id="create-team-dialog",
            max_width="520px",
        ),
        open=State.create_open,
        on_open_change=State.set_create_open,
    )


def _toolbar(title: str, subtitle: str) -> rx.Component:
    return rx.flex(
        heading(title, subtitle),
        rx.cond(SessionState.signed_in, _create_dialog()),
        direction=rx.breakpoints(initial="column", sm="row"),
        justify="between",
        align=rx.breakpoints(initial="start", sm="center"),
        column_gap=SPACE["4"],
        width="100%",
        margin_bottom=rx.breakpoints(initial=SPACE["5"], sm="0"),
    )


def teams_page() -> rx.Component:
    return page(_toolbar(msg.TITLE, msg.SUBTITLE), _list(msg.EMPTY))


def _sign_in_prompt() -> rx.Component:
    return card(
        rx.vstack(
            rx.icon("users", size=40, color=COLOR["accent"]),
            rx.heading(msg.SIGN_IN_TITLE, as_="h2", size="5", text_align="center"),
            rx.text(msg.SIGN_IN_TEXT, color=COLOR["muted"], text_align="center"),
            primary_link(msg.SIGN_IN, login_url("session_expired", path_of("my_teams")), id="teams-sign-in"),
            align="center",
            spacing="3",
            padding_y=SPACE["4"],
        ),
        id="my-teams-sign-in",
        max_width="560px",
        margin="0 auto",
    )


def _tab(value: str, label: str) -> rx.Component:
    return rx.tabs.trigger(label, value=value, id=f"tab-{value}", cursor="pointer")


def my_teams_page() -> rx.Component:
    empty = rx.cond(State.view == OWNED, msg.NO_OWNED, msg.NO_JOINED)
    return page(
        _toolbar(msg.MY_TEAMS_TITLE, msg.MY_TEAMS_SUBTITLE),
        rx.cond(
            State.loading | State.rider_known,
            rx.tabs.root(
                rx.tabs.list(_tab(JOINED, msg.JOINED_TAB), _tab(OWNED, msg.OWNED_TAB), size="2"),
                # A panel for each tab (only the open one is drawn), so each tab controls a real panel.
                *[
                    rx.tabs.content(_list(empty), value=view, padding_top=SPACE["5"])
                    for view in (JOINED, OWNED)
                ],
                value=State.view,
                on_change=State.show_tab,
                activation_mode="manual",
                width="100%",
            ),
            _sign_in_prompt(),
        ),
    )
