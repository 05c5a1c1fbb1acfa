"""The profile (/user/profile) with its tabs, and the account-deletion link's page (/delete-user/{code})."""

import reflex as rx

from components.hash_watch import hash_watch
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import profile
from cycling_site.state.profile import COUNTRY_OPTIONS, HIDDEN_TABS, DeleteUserState, ProfileState
from cycling_site.state.session import SessionState
from cycling_site.ui.connections import connections_panel
from cycling_site.ui.forms import (
    INPUT_STYLE,
    checkbox_field,
    field,
    field_error,
    file_drop,
    form_alert,
    rejection_codes,
    select_input,
    submit_button,
    text_input,
)
from cycling_site.ui.layout import card, heading, page
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE

GENDER_OPTIONS = [["0", "Male"], ["1", "Female"]]
AVATAR_UPLOAD_ID = "avatar-upload"
AVATAR_TYPES = {
    "image/jpeg": [".jpg", ".jpeg"],
    "image/png": [".png"],
    "image/webp": [".webp"],
    "image/gif": [".gif"],
}
# (value, label, icon); Activity Files is declared by the spec but hidden (state.profile.HIDDEN_TABS).
TAB_LIST = [
    ("edit", "Edit Profile", "user-pen"),
    ("connections", "Connections", "link"),
    ("password", "Change Password", "key-round"),
    ("files", "Activity Files", "file-down"),
    ("delete", "Delete Account", "trash-2"),
    ("logout", "Logout", "log-out"),
]


def _two_columns(*children: rx.Component) -> rx.Component:
    return rx.grid(*children, columns=rx.breakpoints(initial="1", sm="2"), spacing="4", width="100%")


def _section_title(text: str) -> rx.Component:
    return rx.heading(text, as_="h2", font_size=SIZE["lg"], margin_bottom=SPACE["4"], **DISPLAY_HEADING)


def _avatar(size) -> rx.Component:
    return rx.cond(
        SessionState.avatar_url != "",
        rx.image(
            src=SessionState.avatar_url,
            alt="Profile picture",
            id="profile-avatar",
            width=size,
            height=size,
            object_fit="cover",
            border_radius=RADIUS["pill"],
            flex_shrink="0",
        ),
        rx.center(
            rx.text(SessionState.initial, font_weight="800", font_size=SIZE["xl"]),
            id="profile-initial",
            width=size,
            height=size,
            border_radius=RADIUS["pill"],
            background=COLOR["accent"],
            color="white",
            flex_shrink="0",
        ),
    )


def _avatar_card() -> rx.Component:
    upload = file_drop(
        rx.hstack(
            rx.icon("camera", size=16),
            rx.text("Upload photo", font_weight="600", font_size=SIZE["sm"]),
            spacing="2",
            align="center",
            padding=f"{SPACE['2']} {SPACE['3']}",
            border=f"1px solid {COLOR['accent']}",
            border_radius=RADIUS["sm"],
            color=COLOR["accent_dark"],
            background=COLOR["accent_soft"],
            cursor="pointer",
            _hover={"background": COLOR["card"]},
        ),
        id=AVATAR_UPLOAD_ID,
        accept=AVATAR_TYPES,
        max_size=profile.AVATAR_MAX_BYTES,
        max_files=1,
        multiple=False,
        disabled=ProfileState.avatar_busy,
        on_drop=ProfileState.upload_avatar(rx.upload_files(upload_id=AVATAR_UPLOAD_ID)),
        on_drop_rejected=lambda rejections: ProfileState.avatar_rejected(rejection_codes(rejections)),
        aria_label="Upload a profile picture",
        border_radius=RADIUS["sm"],
    )
    return card(
        rx.flex(
            _avatar(rx.breakpoints(initial="72px", sm="96px")),
            rx.vstack(
                # The card's title: a heading, not a paragraph in bold.
                rx.heading(
                    SessionState.firstname + " " + SessionState.lastname,
                    as_="h2",
                    font_weight="800",
                    font_size=SIZE["lg"],
                    id="profile-name",
                ),
                rx.text(
                    ProfileState.email, color=COLOR["muted"], font_size=SIZE["sm"], word_break="break-all"
                ),
                rx.cond(ProfileState.is_kid, rx.badge("Kid account", color_scheme="orange", variant="soft")),
                rx.hstack(
                    upload,
                    rx.cond(
                        SessionState.avatar.length() > profile.AVATAR_REMOVABLE_AFTER,
                        rx.button(
                            rx.icon("trash-2", size=16),
                            "Remove",
                            id="avatar-remove",
                            variant="ghost",
                            color_scheme="red",
                            on_click=ProfileState.remove_avatar,
                            cursor="pointer",
                        ),
                    ),
                    rx.cond(ProfileState.avatar_busy, rx.spinner(size="2")),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                    margin_top=SPACE["2"],
                ),
                rx.text(
                    "JPEG, PNG, WebP or GIF, up to 5 MB.",
                    color=COLOR["muted"],
                    font_size=SIZE["xs"],
                ),
                form_alert(ProfileState.avatar_error, id="avatar-error"),
                spacing="1",
                align="start",
                min_width="0",
                flex="1",
            ),
            gap=rx.breakpoints(initial=SPACE["4"], sm=SPACE["5"]),
            align="center",
        ),
        margin_bottom=SPACE["5"],
    )


def _dob_field() -> rx.Component:
    errors = ProfileState.errors
    return rx.cond(
        ProfileState.is_kid,
        rx.box(
            # The input sits in its label and has no name or id: a kid's date of birth is never sent.
            rx.el.label(
                rx.el.span(
                    "Date of Birth",
                    display="block",
                    font_weight="600",
                    font_size=SIZE["sm"],
                    margin_bottom=SPACE["1"],
                ),
                rx.el.input(
                    type="date",
                    value=ProfileState.dob,
                    read_only=True,
                    aria_describedby="dob-locked",
                    style={**INPUT_STYLE, "background": COLOR["surface"], "color": COLOR["muted"]},
                ),
                display="block",
            ),
            rx.hstack(
                rx.icon("lock", size=14),
                rx.text(msg.KID_DOB_LOCKED, id="dob-locked", font_size=SIZE["xs"]),
                spacing="1",
                align="center",
                color=COLOR["muted"],
                margin_top=SPACE["1"],
            ),
            field_error(errors, "dob"),
            width="100%",
        ),
        field(
            "Date of Birth",
            "dob",
            text_input(
                "dob", "date", default_value=ProfileState.dob, max=ProfileState.latest_dob, min="1900-01-01"
            ),
            errors,
        ),
    )


def _edit_panel() -> rx.Component:
    errors = ProfileState.errors
    return card(
        _section_title("Edit Profile"),
        rx.form(
            rx.vstack(
                form_alert(ProfileState.notice, tone="success", id="profile-notice"),
                _two_columns(
                    field(
                        "First Name",
                        "firstname",
                        text_input("firstname", default_value=ProfileState.firstname, max_length=50),
                        errors,
                    ),
                    field(
                        "Last Name",
                        "lastname",
                        text_input("lastname", default_value=ProfileState.lastname, max_length=50),
                        errors,
                    ),
                ),
                _two_columns(
                    _dob_field(),
                    field(
                        "Gender",
                        "gender",
                        select_input("gender", GENDER_OPTIONS, ProfileState.gender),
                        errors,
                    ),
                ),
                field(
                    "Country",
                    "country",
                    select_input("country", COUNTRY_OPTIONS, ProfileState.country),
                    errors,
                ),
                _two_columns(
                    field(
                        "Weight (kg)",
                        "weight",
                        text_input(
                            "weight",
                            "number",
                            step="0.1",
                            input_mode="decimal",
                            default_value=ProfileState.weight,
                        ),
                        errors,
                    ),
                    field(
                        "Height (cm)",
                        "height",
                        text_input(
                            "height",
                            "number",
                            step="1",
                            input_mode="numeric",
                            default_value=ProfileState.height,
                        ),
                        errors,
                    ),
                ),
                checkbox_field("marketing", msg.MARKETING_CONSENT, default_checked=ProfileState.marketing),
                submit_button("Save changes", ~ProfileState.saving, ProfileState.saving, id="profile-submit"),
                spacing="4",
                width="100%",
            ),
            key=ProfileState.form_version,
            on_submit=ProfileState.save,
            reset_on_submit=False,
            no_validate=True,
            width="100%",
        ),
    )


def _password_panel() -> rx.Component:
    errors = ProfileState.password_errors
    return card(
        _section_title("Change Password"),
        rx.form(
            rx.vstack(
                field(
                    "Current Password",
                    "current_password",
                    text_input("current_password", "password", auto_complete="current-password"),
                    errors,
                ),
                field(
                    "New Password",
                    "password",
                    text_input("password", "password", auto_complete="new-password"),
                    errors,
                ),
                field(
                    "Confirm New Password",
                    "repeatPassword",
                    text_input("repeatPassword", "password", auto_complete="new-password"),
                    errors,
                ),
                rx.text(
                    "You will be signed out and can then sign in with your new password.",
                    color=COLOR["muted"],
                    font_size=SIZE["sm"],
                ),
                submit_button(
                    "Change Password",
                    ~ProfileState.changing_password,
                    ProfileState.changing_password,
                    id="password-submit",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=ProfileState.change_password,
            reset_on_submit=False,
            no_validate=True,
            width="100%",
        ),
        max_width="560px",
    )


def _delete_panel() -> rx.Component:
    return card(
        _section_title("Delete Account"),
        rx.vstack(
            rx.text(
                "Deleting your account erases your profile, your profile picture and your app connections. "
                "It cannot be undone.",
                font_size=SIZE["md"],
            ),
            rx.text(
                rx.cond(
                    ProfileState.is_kid,
                    "Your parent or guardian confirms it: we will email the link to ",
                    "We will email you a confirmation link at ",
                ),
                rx.text.strong(ProfileState.deletion_recipient, id="delete-recipient"),
                ". The link is valid for 48 hours.",
                color=COLOR["muted"],
                font_size=SIZE["sm"],
            ),
            rx.alert_dialog.root(
                rx.alert_dialog.trigger(
                    rx.button(
                        rx.icon("trash-2", size=16),
                        "Delete Account",
                        id="delete-open",
                        color_scheme="red",
                        size="3",
                        loading=ProfileState.deleting,
                        cursor="pointer",
                    )
                ),
                rx.alert_dialog.content(
                    rx.alert_dialog.title("Delete your account?"),
                    rx.alert_dialog.description(
                        "We will send the confirmation link to ",
                        rx.text.strong(ProfileState.deletion_recipient),
                        " and sign you out. Your account is deleted when the link is opened.",
                    ),
                    rx.flex(
                        rx.alert_dialog.cancel(
                            rx.button("Cancel", variant="soft", color_scheme="gray", id="delete-cancel")
                        ),
                        rx.alert_dialog.action(
                            rx.button(
                                "Yes, delete my account",
                                color_scheme="red",
                                id="delete-confirm",
                                on_click=ProfileState.request_deletion,
                            )
                        ),
                        gap=SPACE["3"],
                        justify="end",
                        wrap="wrap",
                        margin_top=SPACE["4"],
                    ),
                    max_width="460px",
                ),
            ),
            spacing="4",
            align="start",
        ),
        max_width="640px",
    )


def _tab_trigger(value: str, label: str, icon: str) -> rx.Component:
    return rx.tabs.trigger(
        rx.hstack(rx.icon(icon, size=16), rx.text(label), spacing="2", align="center"),
        value=value,
        cursor="pointer",
        color=COLOR["danger"] if value == "logout" else None,
    )


def _tabs() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            *[_tab_trigger(*tab) for tab in TAB_LIST if tab[0] not in HIDDEN_TABS],
            size="2",
            flex_wrap="wrap",
            margin_bottom=SPACE["5"],
        ),
        rx.tabs.content(_edit_panel(), value="edit"),
        rx.tabs.content(connections_panel(), value="connections"),
        rx.tabs.content(_password_panel(), value="password"),
        rx.tabs.content(_delete_panel(), value="delete"),
        value=ProfileState.tab,
        on_change=ProfileState.select_tab,
        activation_mode="manual",
        width="100%",
    )


def _loading() -> rx.Component:
    return card(
        rx.hstack(
            rx.spinner(size="3"),
            rx.text("Loading your profile...", color=COLOR["muted"]),
            spacing="3",
            align="center",
        ),
        id="profile-loading",
    )


def _load_failed() -> rx.Component:
    return card(
        rx.vstack(
            form_alert(msg.PROFILE_LOAD_FAILED, id="profile-load-error"),
            rx.button("Try again", on_click=ProfileState.load, variant="outline", cursor="pointer"),
            spacing="3",
            align="start",
        )
    )


def profile_page() -> rx.Component:
    return page(
        hash_watch(on_change=ProfileState.hash_changed),
        heading("Profile", "Your details, connections and account"),
        rx.cond(
            # Hydrated: the page's load has run, so no value left from an earlier visit is shown.
            rx.State.is_hydrated & ProfileState.loaded,
            rx.box(_avatar_card(), _tabs(), width="100%"),
            rx.cond(ProfileState.load_failed, _load_failed(), _loading()),
        ),
    )


def delete_user_page() -> rx.Component:
    status = DeleteUserState.status
    return page(
        rx.center(
            card(
                rx.vstack(
                    rx.match(
                        status,
                        ("success", rx.icon("circle-check", size=48, color=COLOR["success"])),
                        ("failed", rx.icon("circle-x", size=48, color=COLOR["danger"], id="delete-failed")),
                        rx.spinner(size="3"),
                    ),
                    rx.heading(
                        "Account deletion",
                        as_="h1",
                        font_size=SIZE["xl"],
                        text_align="center",
                        **DISPLAY_HEADING,
                    ),
                    rx.text(
                        DeleteUserState.message,
                        id="delete-user-message",
                        role=rx.cond(status == "failed", "alert", "status"),
                        text_align="center",
                        color=rx.cond(status == "failed", COLOR["danger"], COLOR["text"]),
                    ),
                    rx.cond(
                        status != "pending",
                        link_button(
                            "Go to events", href=path_of("events"), variant="outline", cursor="pointer"
                        ),
                    ),
                    align="center",
                    spacing="4",
                ),
                max_width="520px",
            ),
            width="100%",
        )
    )
