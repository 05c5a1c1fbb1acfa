"""The registration wizard (/event/{id}) and the thank-you page (/event/{id}/thank-you).

Every step is checked by the same service rules the submit applies again; a file is checked and kept
(privately) as soon as it is chosen, so a wrong file is refused at its own step and nothing typed is lost.
"""

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from cycling_site.db import in_session
from cycling_site.local_time import local
from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as msg
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.routes import path_of
from cycling_site.services import events, phone_otp, registrations, rider_files
from cycling_site.services.validation import FormErrors, checkbox_on
from cycling_site.state.dom import focus
from cycling_site.state.events import event_card
from cycling_site.state.session import Rider, rider_action

FILE_KINDS = tuple(rider_files.KINDS)
# Which step shows each field, so a message from the final submit opens the step that can fix it.
FIELD_STEPS = {
    "disclaimer": "disclaimer",
    **dict.fromkeys(("first_name", "last_name", "gender", "dob", "proof"), "personal"),
    **dict.fromkeys(("id_type", "front", "back", "id_expiry"), "identity"),
    **dict.fromkeys(("device_platform", "device_model", "device_serial", "device_video"), "device"),
    **dict.fromkeys(("team_type", "team_name"), "team"),
    **dict.fromkeys(("dial_code", "phone", "otp", "terms", "type"), "phone"),
}
# The checkboxes of each step: an unticked box is missing from the form's data.
CHECKBOXES = {"disclaimer": ("disclaimer",), "phone": ("terms",)}
# Each step's heading takes the focus when the step opens, so keyboard and screen-reader users start there.
STEP_HEADING_ID = "wizard-step-heading"
LIVE_FIELDS = ("dob", "id_type", "team_type", "dial_code", "phone", "otp_type", "otp")


def _event_id(path: str, from_end: int) -> str:
    parts = path.rstrip("/").split("/")
    return parts[-from_end] if len(parts) >= from_end else ""


def _wizard_reads(db: Session, event_id: str, account: Account) -> tuple:
    """The event, the rider's latest registration for it and what the wizard fills in for them."""
    event, registration = events.event_and_registration(db, event_id, account)
    return event, registration, registrations.user_data(db, account)


class RegistrationState(rx.State):
    loading: bool = True
    error: str = ""
    event: dict = {}
    steps: list[str] = []
    step_index: int = 0
    values: dict[str, str] = {}
    chosen: dict[str, str] = {}
    on_record: dict[str, str] = {}
    errors: dict[str, str] = {}
    form_error: str = ""
    form_version: int = 0
    dial_codes: list[str] = []
    latest_birth_date: str = ""
    earliest_expiry: str = ""
    team_help_text: str = ""
    dob_required: bool = False
    podium: list[dict[str, str]] = []
    other_winners: list[dict[str, str]] = []
    uploading: str = ""
    otp_sent: bool = False
    otp_verified: bool = False
    otp_notice: str = ""
    sending: bool = False
    verifying: bool = False
    submitting: bool = False
    _back: bool = False

    @rx.var
    def step(self) -> str:
        return self.steps[self.step_index] if self.steps else ""

    @rx.var
    def step_titles(self) -> list[str]:
        return [msg.STEPS[step] for step in self.steps]

    @rx.var
    def last_step(self) -> bool:
        return bool(self.steps) and self.step_index == len(self.steps) - 1

    @rx.var
    def proof_needed(self) -> bool:
        dob = registrations.parse_date(self.values.get("dob", ""))
        return dob is not None and registrations.proof_required(dob)

    @rx.var
    def chosen_names(self) -> dict[str, str]:
        return {kind: value.split("|", 1)[-1] for kind, value in self.chosen.items()}

    @rx.var
    def record_names(self) -> dict[str, str]:
        return {kind: value.split("|", 1)[-1] for kind, value in self.on_record.items()}

    @rx.event
    @rider_action()
    async def load(self, rider: Rider):
        self.loading = True
        self.error = self.form_error = self.otp_notice = ""
        self.errors = {}
        self.step_index = 0
        self.otp_sent = self.otp_verified = False
        account = rider.account
        try:
            event, registration, user = await rider.off_loop(
                _wizard_reads, _event_id(self.router.url.path, 1), account
            )
        except events.EventNotFound:
            self.error = events_msg.EVENT_NOT_FOUND
            self.loading = False
            return
        except SQLAlchemyError:
            self.error = events_msg.LIST_FAILED
            self.loading = False
            return
        if events.is_registered(registration):
            yield rx.redirect(path_of("event_list"))
            return
        now = utcnow()
        self.event = event_card(event, events.rider_state(event, account, registration, now))
        self.steps = registrations.steps(event)
        self.dial_codes = phone_otp.dial_codes(event)
        today = local(now).date()
        self.latest_birth_date = registrations.latest_birth_date(today).isoformat()
        self.earliest_expiry = registrations.earliest_expiry(today).isoformat()
        self.team_help_text = event.team_help_text
        self.dob_required = event.dob_required
        self.podium, self.other_winners = events.podium(event.winners, events.conversion_rate(event))
        self._fill(user, phone_otp.default_dial_code(event))
        self.loading = False

    def _fill(self, user: dict, dial_code: str) -> None:
        self.values = {
            "email": user["email"],
            "first_name": user["first_name"],
            "last_name": user["last_name"],
            "gender": str(user["gender"]),
            "dob": user["dob"],
            "id_type": user["id_type"] or "nationalId",
            "id_expiry": user["expiry"] if user["expiry"] >= self.earliest_expiry else self.earliest_expiry,
            "device_platform": user["device"] or "iOS",
            "device_model": user["device_model"],
            "device_serial": user["device_serial"],
            "team_type": "i",
            "team_name": user["team_name"],
            "dial_code": dial_code,
            "phone": "",
            "otp_type": "sms",
            "otp": "",
        }
        self.chosen = {}
        self.on_record = {kind: f"{row['key']}|{row['name']}" for kind, row in user["files"].items() if row}
        self.form_version += 1

    def _application(self) -> registrations.Application:
        return registrations.Application.of(
            {
                **self.values,
                **{kind: self.chosen.get(kind, "").split("|", 1)[0] for kind in FILE_KINDS},
                "disclaimer": checkbox_on(self.values.get("disclaimer")),
                "terms": checkbox_on(self.values.get("terms")),
                "otp_key": self.values.get("otp_key", "") if self.otp_verified else "",
            }
        )

    @rx.event
    def go_back(self) -> None:
        """Marks the form submit that follows this click as a step back, which keeps what was typed."""
        self._back = True

    @rx.event
    @rider_action()
    async def next_step(self, rider: Rider, form_data: dict):
        """Keeps the step's values, checks them, then moves on; the last step submits the application."""
        boxes = CHECKBOXES.get(self.step, ())
        # The form names every field of the wizard; those of other steps come as None.
        typed = {
            name: str(value)
            for name, value in form_data.items()
            if value is not None and name not in ("disclaimer", "terms")
        }
        ticked = {name: "on" if checkbox_on(form_data.get(name)) else "" for name in boxes}
        self.values = {**self.values, **typed, **ticked}
        self.form_error = ""
        if self._back:
            self._back = False
            self.errors = {}
            self.step_index = max(self.step_index - 1, 0)
            self.form_version += 1
            yield focus(STEP_HEADING_ID)
            return
        self.submitting = self.last_step
        yield
        try:
            event = await rider.off_loop(events.get_event, self.event.get("id", ""))
            if self.last_step:
                await rider.off_loop(registrations.submit, rider.account, event.id, self._application())
                yield rx.redirect(f"/event/{event.id}/thank-you")
                return
            await rider.off_loop(
                registrations.check_step, event, rider.account, self.step, self._application()
            )
        except FormErrors as exc:
            self._show(exc.errors)
            yield focus(*self.errors, STEP_HEADING_ID)
            return
        except (events.EventNotFound, SQLAlchemyError):
            self.form_error = events_msg.LIST_FAILED
            return
        finally:
            self.submitting = False
        self.errors = {}
        self.step_index += 1
        self.form_version += 1
        yield focus(STEP_HEADING_ID)

    def _show(self, errors: dict[str, str]) -> None:
        """Messages under their fields, on the step that shows them; event-wide ones above the form."""
        self.form_error = errors.get("event", "")
        field_errors = {name: text for name, text in errors.items() if name != "event"}
        steps = [FIELD_STEPS.get(name, "") for name in field_errors]
        first = min((self.steps.index(step) for step in steps if step in self.steps), default=None)
        if first is not None and first != self.step_index:
            self.step_index = first
            self.form_version += 1
        self.errors = field_errors

    # --- Files ----------------------------------------------------------------------------------------

    @rx.event
    @rider_action()
    async def upload_file(self, rider: Rider, kind: str, files: list[rx.UploadFile]):
        """Stores the file as soon as it is chosen, so a wrong one is refused at its own step."""
        if kind not in rider_files.KINDS or not files:
            return
        self.errors = {name: text for name, text in self.errors.items() if name != kind}
        self.uploading = kind
        yield
        data = await files[0].read(rider_files.MAX_FILE_BYTES + 1)
        try:
            row = await rider.off_loop(rider_files.store, rider.account, kind, files[0].name or "", data)
        except FormErrors as exc:
            self.errors = {**self.errors, kind: next(iter(exc.errors.values()))}
            return
        finally:
            self.uploading = ""
        self.chosen = {**self.chosen, kind: f"{row.id}|{row.name}"}
        self.on_record = {**self.on_record, kind: f"{row.id}|{row.name}"}

    @rx.event
    def file_rejected(self, kind: str, reasons: str) -> None:
        """The browser's own check (size, type) refused the file before it was sent."""
        too_large = "file-too-large" in reasons.split(",")
        wrong_type = msg.INVALID_VIDEO_TYPE if kind == "device_video" else msg.INVALID_FILE_TYPE
        self.errors = {**self.errors, kind: msg.FILE_TOO_LARGE if too_large else wrong_type}

    @rx.event
    def reuse_file(self, kind: str) -> None:
        if kind in self.on_record:
            self.chosen = {**self.chosen, kind: self.on_record[kind]}
            self.errors = {name: text for name, text in self.errors.items() if name != kind}

    @rx.event
    def clear_file(self, kind: str) -> None:
        self.chosen = {name: value for name, value in self.chosen.items() if name != kind}

    @rx.event
    @rider_action()
    async def download_file(self, rider: Rider, kind: str):
        """Opens the rider's own file through a link that lasts a few minutes."""
        key = self.chosen.get(kind, "").split("|", 1)[0]
        try:
            url = await rider.off_loop(rider_files.download_url, rider.account, key)
        except (FormErrors, SQLAlchemyError):
            return rx.toast.error(msg.DOWNLOAD_FAILED, id="download-error")
        return rx.download(url=url)

    # --- Phone ----------------------------------------------------------------------------------------

    @rx.event
    def set_value(self, name: str, value: str) -> None:
        """The fields other fields depend on are live: the date of birth (proof), the ID type (back image),
        the team choice (team name) and the phone step's fields (a code is sent before the step is done)."""
        value = str(value)[:40]
        if name not in LIVE_FIELDS or self.values.get(name) == value:
            return
        self.values = {**self.values, name: value}
        if name in ("dial_code", "phone"):
            self.otp_sent = self.otp_verified = False
            self.otp_notice = ""

    @rx.event
    @rider_action(busy="sending", errors="errors")
    async def send_code(self, rider: Rider):
        values = self.values
        try:
            event = await rider.off_loop(events.get_event, self.event.get("id", ""))
            phone = phone_otp.check_phone(event, values.get("dial_code", ""), values.get("phone", ""))
            key = await rider.off_loop(
                phone_otp.send_code,
                rider.account,
                event,
                phone,
                values.get("otp_type", "sms"),
                self.router.session.client_ip,
            )
        except (events.EventNotFound, SQLAlchemyError):
            self.form_error = events_msg.LIST_FAILED
            return
        self.values = {**self.values, "otp_key": key, "otp": "", "sent_to": phone.full}
        self.otp_sent = True
        self.otp_verified = False
        self.otp_notice = msg.OTP_SENT.format(phone=phone.full)

    @rx.event
    @rider_action(busy="verifying", errors="errors")
    async def verify_code(self, rider: Rider):
        values = self.values
        try:
            await rider.off_loop(
                phone_otp.verify_code,
                rider.account,
                values.get("otp_key", ""),
                values.get("sent_to", ""),
                values.get("otp", ""),
            )
        except SQLAlchemyError:
            self.form_error = events_msg.LIST_FAILED
            return
        self.otp_verified = True
        self.otp_notice = ""


class ThankYouState(rx.State):
    loading: bool = True
    error: str = ""
    event: dict = {}

    @rx.event
    async def load(self) -> None:
        self.loading = True
        self.error = ""
        try:
            event = await in_session(events.get_event, _event_id(self.router.url.path, 2))
        except events.EventNotFound:
            self.error = events_msg.EVENT_NOT_FOUND
            self.loading = False
            return
        except SQLAlchemyError:
            self.error = events_msg.LIST_FAILED
            self.loading = False
            return
        self.event = event_card(event, events.RiderState("", "", False))
        self.loading = False
