"""Third-party import on the dashboard's Overview tab (spec 3): the banner by status and the 3-step wizard
with its success screen."""

import reflex as rx

from cycling_site.messages import third_party_import as msg
from cycling_site.services import rider_files
from cycling_site.services.third_party_import import MAX_PROOF_FILES, PLATFORMS
from cycling_site.state.third_party_import import ImportState
from cycling_site.ui.forms import (
    INPUT_STYLE,
    drop_zone,
    field,
    field_error,
    form_alert,
    rejection_codes,
    text_input,
)
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, PRIMARY_BUTTON, RADIUS, SIZE, SPACE

State = ImportState
UPLOAD_ID = "import-proofs"
PROOF_ACCEPT = {"image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "application/pdf": [".pdf"]}
STEP_LABELS = ("Platform", "Ride stats", "Proof")
UNIT_LABELS = (("kilometers", "Kilometers"), ("miles", "Miles"))


def _accent_button(*children, **props) -> rx.Component:
    return rx.button(
        *children,
        size="3",
        letter_spacing="0.04em",
        **PRIMARY_BUTTON,
        **props,
    )


# --- The banner -----------------------------------------------------------------------------------------


def _banner(tone: str, icon: str, title: str, text: rx.Component, *actions: rx.Component, **props):
    return rx.flex(
        rx.center(
            rx.icon(icon, size=24, color=COLOR[tone]),
            width="48px",
            height="48px",
            border_radius=RADIUS["pill"],
            background="white",
            flex_shrink="0",
            # On a phone the banner's text needs the width more than the icon does.
            display=rx.breakpoints(initial="none", sm="flex"),
        ),
        rx.vstack(
            rx.heading(title, as_="h2", font_size=SIZE["lg"], **DISPLAY_HEADING),
            text,
            spacing="1",
            flex="1",
            min_width="0",
        ),
        *actions,
        direction=rx.breakpoints(initial="column", sm="row"),
        gap=SPACE["4"],
        align=rx.breakpoints(initial="start", sm="center"),
        background=COLOR[f"{tone}_soft"],
        border_left=f"4px solid {COLOR[tone]}",
        border_radius=RADIUS["lg"],
        padding=[SPACE["4"], SPACE["5"]],
        width="100%",
        role="status",
        **props,
    )


def _text(value, **props) -> rx.Component:
    return rx.text(value, **{"color": COLOR["text"], "font_size": SIZE["sm"], "line_height": "1.5", **props})


def import_banner() -> rx.Component:
    """Offer, under review, Congratulations (until Got It) or declined (with Re-import)."""
    return rx.fragment(
        form_alert(State.error, id="import-error"),
        rx.match(
            State.banner,
            (
                "offer",
                _banner(
                    "accent",
                    "cloud-download",
                    msg.OFFER_TITLE,
                    _text(msg.OFFER_TEXT),
                    _accent_button(
                        rx.icon("upload", size=16),
                        msg.OFFER_BUTTON,
                        on_click=State.open_wizard,
                        id="import-open",
                    ),
                    id="import-banner-offer",
                ),
            ),
            (
                "submitted",
                _banner(
                    "warning",
                    "hourglass",
                    msg.UNDER_REVIEW_TITLE,
                    _text(msg.UNDER_REVIEW_TEXT),
                    id="import-banner-submitted",
                ),
            ),
            (
                "approved",
                _banner(
                    "success",
                    "party-popper",
                    msg.APPROVED_TITLE,
                    _text(State.approved_text),
                    rx.button(
                        msg.GOT_IT,
                        on_click=State.got_it,
                        loading=State.seeing,
                        size="3",
                        color_scheme="green",
                        font_weight="700",
                        cursor="pointer",
                        id="import-got-it",
                    ),
                    id="import-banner-approved",
                ),
            ),
            (
                "rejected",
                _banner(
                    "danger",
                    "circle-x",
                    msg.DECLINED_TITLE,
                    rx.vstack(
                        _text(msg.DECLINED, id="import-declined-text"),
                        rx.cond(
                            State.reason != "",
                            _text(
                                msg.RACE_CONTROL_NOTE + State.reason,
                                color=COLOR["muted"],
                                id="import-declined-reason",
                            ),
                        ),
                        spacing="1",
                    ),
                    _accent_button(
                        rx.icon("rotate-ccw", size=16),
                        msg.REIMPORT,
                        on_click=State.open_wizard,
                        id="import-reimport",
                    ),
                    id="import-banner-rejected",
                ),
            ),
            rx.fragment(),
        ),
    )


# --- The wizard -----------------------------------------------------------------------------------------


def _progress() -> rx.Component:
    """The three steps, the current one and those done marked."""

    def dot(index: int, label: str) -> rx.Component:
        reached = State.step_index >= index
        return rx.hstack(
            rx.center(
                rx.cond(State.step_index > index, rx.icon("check", size=14), rx.text(str(index + 1))),
                width="26px",
                height="26px",
                border_radius=RADIUS["pill"],
                background=rx.cond(reached, COLOR["accent"], COLOR["border"]),
                color=rx.cond(reached, "white", COLOR["muted"]),
                font_size=SIZE["xs"],
                font_weight="800",
                flex_shrink="0",
            ),
            rx.text(
                label,
                font_size=SIZE["xs"],
                font_weight="700",
                letter_spacing="0.06em",
                text_transform="uppercase",
                color=rx.cond(reached, COLOR["text"], COLOR["muted"]),
                display=rx.breakpoints(initial="none", sm="block"),
            ),
            spacing="2",
            align="center",
        )

    return rx.hstack(
        *[
            item
            for index, label in enumerate(STEP_LABELS)
            for item in (
                dot(index, label),
                *([rx.box(height="2px", flex="1", background=COLOR["border"])] if index < 2 else []),
            )
        ],
        align="center",
        spacing="2",
        width="100%",
        id="import-steps",
    )


def _platform_step() -> rx.Component:
    return rx.vstack(
        rx.radio_cards.root(
            *[
                rx.radio_cards.item(
                    rx.text(platform, font_weight="700"),
                    value=platform,
                    id=f"platform-{platform.lower().replace(' ', '-')}",
                    cursor="pointer",
                )
                for platform in PLATFORMS
            ],
            value=State.values["migration_platform"],
            on_value_change=State.choose_platform,
            columns=rx.breakpoints(initial="2", sm="3"),
            gap=SPACE["3"],
            width="100%",
            id="platform-choices",
            name="migration_platform",
            aria_label="Migration platform",
        ),
        field_error(State.errors, "migration_platform"),
        spacing="2",
        width="100%",
    )


def _number(name: str, placeholder: str = "0", mode: str = "numeric") -> rx.Component:
    return text_input(
        name, default_value=State.values[name], input_mode=mode, placeholder=placeholder, max_length=20
    )


def _stats_step() -> rx.Component:
    errors = State.errors
    return rx.vstack(
        rx.text("Total time spent", font_weight="700", font_size=SIZE["sm"]),
        rx.grid(
            field("Days", "days", _number("days"), errors),
            field("Hours", "hours", _number("hours"), errors),
            field("Minutes", "minutes", _number("minutes"), errors),
            columns="3",
            spacing="3",
            width="100%",
        ),
        rx.grid(
            field("Overall distance", "distance", _number("distance", mode="decimal"), errors),
            field(
                "Unit",
                "distance_unit",
                rx.el.select(
                    *[rx.el.option(label, value=value) for value, label in UNIT_LABELS],
                    id="distance_unit",
                    name="distance_unit",
                    default_value=State.values["distance_unit"],
                    style=INPUT_STYLE,
                ),
                errors,
            ),
            columns="2",
            spacing="3",
            width="100%",
        ),
        field("Overall elevation (meters)", "elevation", _number("elevation", mode="decimal"), errors),
        spacing="3",
        width="100%",
    )


def _chosen_files() -> rx.Component:
    return rx.vstack(
        rx.foreach(
            State.files,
            lambda file: rx.hstack(
                rx.icon("file-check-2", size=18, color=COLOR["success"], flex_shrink="0"),
                rx.text(
                    file["name"], font_size=SIZE["sm"], font_weight="600", flex="1", word_break="break-all"
                ),
                rx.icon_button(
                    rx.icon("x", size=14),
                    type="button",
                    variant="ghost",
                    color_scheme="gray",
                    size="1",
                    on_click=State.remove_file(file["id"]),
                    aria_label="Remove " + file["name"],
                    cursor="pointer",
                ),
                class_name="proof-file",
                align="center",
                width="100%",
                padding=f"{SPACE['2']} {SPACE['3']}",
                border=f"1px solid {COLOR['border']}",
                border_radius=RADIUS["sm"],
            ),
        ),
        spacing="2",
        width="100%",
        id="proof-files-list",
    )


def _proof_step() -> rx.Component:
    dropzone = drop_zone(
        State.uploading,
        "upload",
        "Choose files or drop them here",
        f"Images (JPEG, PNG) or PDF, up to {MAX_PROOF_FILES} files of 8 MB",
        id=UPLOAD_ID,
        accept=PROOF_ACCEPT,
        multiple=True,
        max_files=MAX_PROOF_FILES,
        max_size=rider_files.MAX_FILE_BYTES,
        disabled=State.uploading,
        on_drop=State.upload_proofs(rx.upload_files(upload_id=UPLOAD_ID)),
        on_drop_rejected=lambda rejections: State.files_rejected(rejection_codes(rejections)),
        aria_label="Upload proof files",
    )
    return rx.vstack(
        field(
            "Profile link",
            "profile_link",
            text_input(
                "profile_link",
                "url",
                default_value=State.values["profile_link"],
                placeholder="https://",
                max_length=500,
                auto_complete="url",
            ),
            State.errors,
        ),
        rx.box(
            rx.text("Proof", font_weight="600", font_size=SIZE["sm"], margin_bottom=SPACE["1"]),
            rx.text(
                "Screenshots or exports of your totals on the platform.",
                font_size=SIZE["xs"],
                color=COLOR["muted"],
                margin_bottom=SPACE["2"],
            ),
            dropzone,
            width="100%",
        ),
        form_alert(State.files_alert, tone="warning", id="proof-files-alert"),
        field_error(State.errors, "proof_files"),
        _chosen_files(),
        spacing="3",
        width="100%",
    )


def _buttons() -> rx.Component:
    return rx.hstack(
        rx.cond(
            State.step_index > 0,
            rx.button(
                "Back",
                type="submit",
                on_click=State.go_back,
                variant="outline",
                size="3",
                color_scheme="gray",
                id="import-back",
                cursor="pointer",
            ),
        ),
        rx.spacer(),
        _accent_button(
            rx.cond(State.last_step, "Submit", "Next"),
            type="submit",
            loading=State.submitting,
            disabled=State.uploading | ~rx.State.is_hydrated,
            id="import-next",
        ),
        width="100%",
        margin_top=SPACE["5"],
    )


def _wizard_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            _progress(),
            form_alert(State.form_error, id="import-form-error"),
            rx.match(State.step_index, (0, _platform_step()), (1, _stats_step()), _proof_step()),
            spacing="4",
            width="100%",
        ),
        _buttons(),
        on_submit=State.next_step,
        reset_on_submit=False,
        key=State.form_version,
        id="import-form",
        width="100%",
    )


def _success() -> rx.Component:
    return rx.vstack(
        rx.icon("circle-check", size=52, color=COLOR["success"]),
        rx.dialog.title(msg.SUBMITTED, size="5", text_align="center"),
        rx.text(msg.SUBMITTED_TEXT, color=COLOR["muted"], text_align="center"),
        _accent_button("Done", on_click=State.done, id="import-done", margin_top=SPACE["3"]),
        align="center",
        spacing="3",
        padding_y=SPACE["5"],
        id="import-success",
    )


def import_wizard() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.cond(
                State.submitted,
                _success(),
                rx.fragment(
                    rx.dialog.title(
                        State.title,
                        font_size=SIZE["lg"],
                        margin_bottom=SPACE["4"],
                        padding_right=SPACE["6"],
                        **DISPLAY_HEADING,
                    ),
                    rx.dialog.description(
                        "Import your ride totals from another platform for race control to review.",
                        display="none",
                    ),
                    _wizard_form(),
                ),
            ),
            rx.cond(
                ~State.submitted,
                rx.dialog.close(
                    rx.icon_button(
                        rx.icon("x", size=16),
                        variant="ghost",
                        color_scheme="gray",
                        aria_label="Close",
                        position="absolute",
                        top="14px",
                        right="14px",
                        id="import-close",
                    )
                ),
            ),
            max_width="600px",
            width="calc(100vw - 24px)",
            id="import-wizard",
        ),
        open=State.wizard_open,
        on_open_change=State.close_wizard,
    )
