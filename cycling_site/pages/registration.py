"""The registration wizard (/event/{id}) and the thank-you page (/event/{id}/thank-you)."""

import reflex as rx

from cycling_site.messages import registration as msg
from cycling_site.routes import path_of
from cycling_site.services import registrations, rider_files
from cycling_site.settings import settings
from cycling_site.state.registration import STEP_HEADING_ID, RegistrationState, ThankYouState
from cycling_site.ui.events import event_image, winners_card
from cycling_site.ui.feedback import loading_line, primary_link, status_panel
from cycling_site.ui.forms import (
    INPUT_STYLE,
    checkbox_field,
    drop_zone,
    field,
    field_error,
    form_alert,
    live_input,
    rejection_codes,
    terms_agreement,
    text_input,
)
from cycling_site.ui.layout import card, page, titled
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SIZE, SPACE

State = RegistrationState
DOCUMENT_ACCEPT = {"image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "application/pdf": [".pdf"]}
VIDEO_ACCEPT = {"video/mp4": [".mp4"], "video/quicktime": [".mov"], "video/webm": [".webm"]}
STEP_TITLE = {
    "font_size": SIZE["xs"],
    "font_weight": "700",
    "letter_spacing": "0.06em",
    "white_space": "nowrap",
}
GENDER_OPTIONS = [("0", "Male"), ("1", "Female")]
RECOMMENDED_DEVICES = [
    ("iOS", "iOS 11 or later: iPad Mini 5, iPad Air 3, iPad Pro 2 or above, iPad 7, iPhone X or above."),
    (
        "Android",
        "Android 9.0 or above, 4 GB RAM, 32 GB storage, Snapdragon 660, Mali G52 or Adreno 512 class.",
    ),
]


def _options(pairs) -> list[rx.Component]:
    return [rx.el.option(label, value=value) for value, label in pairs]


def _select(name: str, pairs, default: rx.Var, **props) -> rx.Component:
    return rx.el.select(
        *_options(pairs), id=name, name=name, default_value=default, style=INPUT_STYLE, **props
    )


def _live(name: str):
    return lambda value: State.set_value(name, value)


def _live_input(
    name: str, auto_complete: str, max_length: int, input_type: str = "text", **props
) -> rx.Component:
    """A digits field the state follows as it is typed."""
    return live_input(
        name,
        _live(name),
        input_type,
        default_value=State.values[name],
        input_mode="numeric",
        auto_complete=auto_complete,
        max_length=max_length,
        **props,
    )


def _choice(field_name: str, choices, **props) -> rx.Component:
    """Radio buttons bound to a live value; each item's id is the field name and the value."""
    return rx.radio_group.root(
        rx.hstack(
            *[
                rx.el.label(
                    rx.radio_group.item(value=value, id=f"{field_name.replace('_', '-')}-{value}"),
                    rx.text(label),
                    display="flex",
                    gap=SPACE["2"],
                    align_items="center",
                    cursor="pointer",
                )
                for value, label in choices
            ],
            spacing="5",
        ),
        value=State.values[field_name],
        on_change=_live(field_name),
        **props,
    )


def _two(*children: rx.Component) -> rx.Component:
    return rx.grid(*children, columns=rx.breakpoints(initial="1", sm="2"), spacing="4", width="100%")


def _section(title: str, *children: rx.Component) -> rx.Component:
    return rx.vstack(
        rx.heading(
            title,
            as_="h2",
            id=STEP_HEADING_ID,
            tab_index=-1,
            outline="none",
            font_size=SIZE["lg"],
            **DISPLAY_HEADING,
        ),
        *children,
        spacing="4",
        width="100%",
        align="start",
    )


# --- Files --------------------------------------------------------------------------------------------


def _chosen_file(kind: str) -> rx.Component:
    return rx.hstack(
        rx.icon("file-check-2", size=20, color=COLOR["success"]),
        rx.text(State.chosen_names[kind], font_weight="600", flex="1", word_break="break-all"),
        rx.button(
            rx.icon("eye", size=14),
            "View",
            type="button",
            variant="soft",
            size="1",
            on_click=State.download_file(kind),
            id=f"{kind}-view",
            cursor="pointer",
        ),
        rx.button(
            "Change",
            type="button",
            variant="ghost",
            size="1",
            on_click=State.clear_file(kind),
            id=f"{kind}-change",
            cursor="pointer",
        ),
        id=f"{kind}-chosen",
        align="center",
        width="100%",
        padding=SPACE["3"],
        border=f"1px solid {COLOR['border']}",
        border_radius=RADIUS["sm"],
        background=COLOR["card"],
    )


def _dropzone(kind: str) -> rx.Component:
    upload_id = f"upload-{kind}"
    video = kind == "device_video"
    hint = "MP4, MOV or WEBM, up to 8 MB" if video else "JPEG, JPG, PNG or PDF, up to 8 MB"
    return drop_zone(
        State.uploading == kind,
        "video" if video else "upload",
        "Choose a file or drop it here",
        hint,
        id=upload_id,
        accept=VIDEO_ACCEPT if video else DOCUMENT_ACCEPT,
        max_files=1,
        max_size=rider_files.MAX_FILE_BYTES,
        multiple=False,
        on_drop=State.upload_file(kind, rx.upload_files(upload_id=upload_id)),
        on_drop_rejected=lambda rejections: State.file_rejected(kind, rejection_codes(rejections)),
        aria_label=f"Upload the {kind.replace('_', ' ')} file",
    )


def _file_slot(kind: str, label: str, required: bool | rx.Var = True) -> rx.Component:
    return rx.box(
        rx.hstack(
            rx.text(label, font_weight="600", font_size=SIZE["sm"]),
            rx.cond(
                required, rx.text("*", color=COLOR["danger"]), rx.text("(optional)", color=COLOR["muted"])
            ),
            spacing="1",
            margin_bottom=SPACE["1"],
        ),
        rx.cond(
            State.chosen.contains(kind),
            _chosen_file(kind),
            rx.vstack(
                _dropzone(kind),
                rx.cond(
                    State.on_record.contains(kind),
                    rx.button(
                        rx.icon("history", size=14),
                        "Use the file on record: " + State.record_names[kind],
                        type="button",
                        variant="ghost",
                        size="2",
                        on_click=State.reuse_file(kind),
                        id=f"{kind}-reuse",
                        cursor="pointer",
                    ),
                ),
                spacing="2",
                width="100%",
            ),
        ),
        field_error(State.errors, kind),
        width="100%",
        class_name="file-slot",
    )


# --- Steps --------------------------------------------------------------------------------------------


def _disclaimer() -> rx.Component:
    return _section(
        msg.STEPS["disclaimer"],
        rx.text(msg.DISCLAIMER, line_height="1.6", color=COLOR["text"]),
        checkbox_field(
            "disclaimer", msg.DISCLAIMER_ACCEPT, default_checked=State.values["disclaimer"] == "on"
        ),
        field_error(State.errors, "disclaimer"),
    )


def _personal() -> rx.Component:
    errors = State.errors
    values = State.values
    return _section(
        msg.STEPS["personal"],
        _two(
            field(
                "First name",
                "first_name",
                text_input("first_name", default_value=values["first_name"], max_length=50),
                errors,
            ),
            field(
                "Last name",
                "last_name",
                text_input("last_name", default_value=values["last_name"], max_length=50),
                errors,
            ),
        ),
        _two(
            field("Email", "email", text_input("email", value=values["email"], read_only=True), errors),
            field("Gender", "gender", _select("gender", GENDER_OPTIONS, values["gender"]), errors),
        ),
        rx.cond(
            State.dob_required,
            rx.vstack(
                field(
                    "Date of birth",
                    "dob",
                    live_input(
                        "dob",
                        _live("dob"),
                        "date",
                        default_value=values["dob"],
                        max=State.latest_birth_date,
                    ),
                    errors,
                ),
                _file_slot("proof", "Passport or ID (proof of age)", State.proof_needed),
                rx.text(
                    msg.PROOF_RULE,
                    font_size=SIZE["xs"],
                    color=COLOR["muted"],
                ),
                spacing="4",
                width="100%",
            ),
        ),
    )


def _identity() -> rx.Component:
    values = State.values
    return _section(
        msg.STEPS["identity"],
        _two(
            field(
                "ID type",
                "id_type",
                _select(
                    "id_type", registrations.ID_TYPES.items(), values["id_type"], on_change=_live("id_type")
                ),
                State.errors,
            ),
            field(
                "Expiry date",
                "id_expiry",
                text_input("id_expiry", "date", default_value=values["id_expiry"], min=State.earliest_expiry),
                State.errors,
            ),
        ),
        _two(
            _file_slot("front", "Front image"),
            rx.cond(values["id_type"] != "passport", _file_slot("back", "Back image")),
        ),
    )


def _device() -> rx.Component:
    values = State.values
    return _section(
        msg.STEPS["device"],
        rx.callout(
            "Only direct-drive smart trainers are allowed.",
            icon="info",
            color_scheme="blue",
            width="100%",
        ),
        field(
            "Platform",
            "device_platform",
            _select("device_platform", [(p, p) for p in registrations.PLATFORMS], values["device_platform"]),
            State.errors,
        ),
        _two(
            field(
                "Trainer model name",
                "device_model",
                text_input("device_model", default_value=values["device_model"], max_length=100),
                State.errors,
            ),
            field(
                "Trainer serial number",
                "device_serial",
                text_input("device_serial", default_value=values["device_serial"], max_length=100),
                State.errors,
            ),
        ),
        _file_slot("device_video", "Device video", required=False),
        rx.box(
            rx.text("Recommended devices", font_weight="700", margin_bottom=SPACE["2"]),
            *[
                rx.hstack(
                    rx.badge(platform, variant="soft", min_width="64px", justify_content="center"),
                    rx.text(text, font_size=SIZE["sm"], color=COLOR["muted"]),
                    spacing="3",
                    align="start",
                    margin_bottom=SPACE["2"],
                )
                for platform, text in RECOMMENDED_DEVICES
            ],
            id="recommended-devices",
            width="100%",
            padding=SPACE["4"],
            border_radius=RADIUS["md"],
            background=COLOR["surface"],
        ),
    )


def _team() -> rx.Component:
    values = State.values
    return _section(
        msg.STEPS["team"],
        _choice("team_type", registrations.TEAM_TYPES.items(), name="team_type"),
        field_error(State.errors, "team_type"),
        rx.cond(
            values["team_type"] == "y",
            field(
                "Team name",
                "team_name",
                text_input("team_name", default_value=values["team_name"], max_length=100),
                State.errors,
            ),
        ),
        rx.cond(
            State.team_help_text != "",
            rx.text(State.team_help_text, font_size=SIZE["sm"], color=COLOR["muted"], id="team-help"),
        ),
    )


def _phone() -> rx.Component:
    values = State.values
    return _section(
        msg.STEPS["phone"],
        rx.grid(
            field(
                "Country code",
                "dial_code",
                rx.el.select(
                    rx.foreach(State.dial_codes, lambda code: rx.el.option("+" + code, value=code)),
                    id="dial_code",
                    name="dial_code",
                    default_value=values["dial_code"],
                    on_change=_live("dial_code"),
                    style=INPUT_STYLE,
                ),
                State.errors,
            ),
            field(
                "Phone number",
                "phone",
                _live_input("phone", "tel-national", 11, "tel"),
                State.errors,
            ),
            columns="130px 1fr",
            spacing="3",
            width="100%",
        ),
        rx.cond(
            ~State.otp_verified,
            rx.flex(
                _choice("otp_type", (("sms", "SMS"), ("whatsapp", "WhatsApp"))),
                rx.button(
                    rx.cond(State.otp_sent, "Resend", "Send code"),
                    type="button",
                    variant=rx.cond(State.otp_sent, "soft", "solid"),
                    on_click=State.send_code,
                    loading=State.sending,
                    id="send-code",
                    cursor="pointer",
                ),
                justify="between",
                align="center",
                wrap="wrap",
                gap=SPACE["3"],
                width="100%",
            ),
        ),
        form_alert(State.otp_notice, tone="success", id="otp-notice"),
        rx.cond(
            State.otp_sent & ~State.otp_verified,
            rx.hstack(
                rx.box(
                    field(
                        "Verification code",
                        "otp",
                        # A new code empties the field.
                        _live_input("otp", "one-time-code", 6, key=values["otp_key"]),
                        State.errors,
                    ),
                    flex="1",
                ),
                rx.button(
                    "Verify",
                    type="button",
                    on_click=State.verify_code,
                    loading=State.verifying,
                    id="verify-code",
                    margin_top="26px",
                    cursor="pointer",
                ),
                align="start",
                width="100%",
            ),
        ),
        rx.cond(
            State.otp_verified,
            rx.vstack(
                form_alert(msg.OTP_VERIFIED, tone="success", id="otp-verified"),
                terms_agreement("terms"),
                field_error(State.errors, "terms"),
                width="100%",
            ),
        ),
    )


def _stepper() -> rx.Component:
    return rx.hstack(
        rx.foreach(
            State.step_titles,
            lambda title, index: rx.hstack(
                rx.center(
                    rx.cond(index < State.step_index, rx.icon("check", size=14), rx.text(index + 1)),
                    width="26px",
                    height="26px",
                    min_width="26px",
                    border_radius=RADIUS["pill"],
                    font_size=SIZE["xs"],
                    font_weight="800",
                    color=rx.cond(index <= State.step_index, "white", COLOR["muted"]),
                    background=rx.cond(index <= State.step_index, COLOR["accent"], COLOR["border"]),
                ),
                rx.cond(
                    index == State.step_index,
                    rx.text(title, color=COLOR["text"], **STEP_TITLE),
                    rx.text(
                        title,
                        color=COLOR["muted"],
                        display=rx.breakpoints(initial="none", md="block"),
                        **STEP_TITLE,
                    ),
                ),
                align="center",
                spacing="2",
                class_name="wizard-step",
                aria_current=rx.cond(index == State.step_index, "step", "false"),
            ),
        ),
        spacing="4",
        width="100%",
        wrap="wrap",
        row_gap=SPACE["2"],
        id="wizard-steps",
    )


def _buttons() -> rx.Component:
    """Back, then Next or Submit, in reading and tab order. Back is not a submit button, so Enter in a field
    moves on; it sends the form itself, marked as a step back, so what was typed is kept."""
    return rx.flex(
        rx.cond(
            State.step_index > 0,
            rx.button(
                "Back",
                type="button",
                size="3",
                variant="soft",
                color_scheme="gray",
                on_click=[
                    State.go_back,
                    rx.call_script("document.getElementById('wizard-form').requestSubmit()"),
                ],
                id="wizard-back",
                cursor="pointer",
            ),
            rx.box(),
        ),
        rx.button(
            rx.cond(State.last_step, "Submit", "Next"),
            type="submit",
            size="3",
            loading=State.submitting,
            background=COLOR["accent"],
            color="white",
            font_weight="700",
            id="wizard-next",
            cursor="pointer",
        ),
        justify="between",
        width="100%",
        margin_top=SPACE["5"],
    )


def _wizard() -> rx.Component:
    return card(
        _stepper(),
        rx.divider(margin_y=SPACE["4"]),
        form_alert(State.form_error, id="wizard-error"),
        rx.form(
            rx.match(
                State.step,
                ("disclaimer", _disclaimer()),
                ("personal", _personal()),
                ("identity", _identity()),
                ("device", _device()),
                ("team", _team()),
                ("phone", _phone()),
                rx.fragment(),
            ),
            _buttons(),
            key=State.form_version,
            on_submit=State.next_step,
            reset_on_submit=False,
            no_validate=True,
            width="100%",
            id="wizard-form",
        ),
    )


def _breadcrumb(*crumbs: tuple[str | rx.Var, str | None]) -> rx.Component:
    items = []
    for index, (label, href) in enumerate(crumbs):
        if index:
            items.append(rx.icon("chevron-right", size=14, color=COLOR["muted"]))
        items.append(
            rx.link(label, href=href, color=COLOR["muted"])
            if href is not None
            else rx.text(label, font_weight="600", color=COLOR["text"])
        )
    return rx.el.nav(
        rx.hstack(*items, align="center", spacing="2", wrap="wrap", font_size=SIZE["sm"]),
        aria_label="Breadcrumb",
        id="breadcrumb",
        margin_bottom=SPACE["4"],
    )


def _event_header(event: rx.Var) -> rx.Component:
    return rx.hstack(
        event_image(event, ["72px", "120px"], ["54px", "90px"]),
        rx.vstack(
            rx.heading(
                event["name"].to(str), as_="h1", font_size=[SIZE["lg"], SIZE["xl"]], **DISPLAY_HEADING
            ),
            rx.text(event["when"].to(str), color=COLOR["muted"], font_size=SIZE["sm"]),
            spacing="1",
        ),
        spacing="4",
        align="center",
        margin_bottom=SPACE["5"],
    )


def registration_page() -> rx.Component:
    event = State.event
    return page(
        rx.cond(
            State.loading,
            titled(msg.PAGE_HEADING, loading_line("Loading the registration form…", "registration-loading")),
            rx.cond(
                State.error != "",
                titled(msg.PAGE_HEADING, form_alert(State.error, id="registration-error")),
                rx.box(
                    _breadcrumb(
                        ("Events", path_of("event_list")),
                        (event["name"].to(str), "/event/detail/" + event["id"].to(str)),
                        ("Registration", None),
                    ),
                    _event_header(event),
                    rx.cond(
                        event["can_register"].to(bool),
                        _wizard(),
                        status_panel(
                            "warning",
                            "Registration unavailable",
                            event["message"].to(str),
                            primary_link("Back to events", path_of("event_list")),
                            id="registration-closed",
                        ),
                    ),
                    rx.box(winners_card(State.podium, State.other_winners), margin_top=SPACE["5"]),
                    max_width="860px",
                    margin="0 auto",
                ),
            ),
        )
    )


def thank_you_page() -> rx.Component:
    event = ThankYouState.event
    return page(
        rx.cond(
            ThankYouState.loading,
            titled(msg.PAGE_HEADING, loading_line("Loading…")),
            rx.cond(
                ThankYouState.error != "",
                titled(msg.PAGE_HEADING, form_alert(ThankYouState.error, id="thank-you-error")),
                status_panel(
                    "success",
                    msg.THANK_YOU,
                    msg.THANK_YOU_TEXT,
                    rx.text(
                        "Questions? Write to ",
                        rx.link(settings.support_email, href=f"mailto:{settings.support_email}"),
                        font_size=SIZE["sm"],
                        id="support-contact",
                    ),
                    rx.cond(
                        event["ruleset"].to(str) != "",
                        rx.link(
                            "Read the race rules",
                            href=event["ruleset"].to(str),
                            is_external=True,
                            id="rules-link",
                            font_weight="600",
                        ),
                    ),
                    primary_link("Back to events", path_of("event_list")),
                    level="h1",
                    id="thank-you",
                ),
            ),
        )
    )
