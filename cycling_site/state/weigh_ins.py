"""The weigh-in banner of the dashboard (spec 1 sections 2, 4 and 8): the weights the rider owes, each shown
once its window has started (open when the page loads, or when the page's clock reaches its start), with a
countdown to its end; at the end the item goes and the deadline warning shows. Submit opens the dialog
(weight and proof); a stored declaration takes the item away and the rider's items are read again.

A later start and every end reach this state from the page's countdowns, so they only decide what is
shown: the store rules (window, registration, weight, proof) are held by services.weigh_ins on every submit.
"""

import logging
from datetime import datetime

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from cycling_site.messages import events as events_msg
from cycling_site.messages import registration as files_msg
from cycling_site.messages import weigh_ins as msg
from cycling_site.models.accounts import Account
from cycling_site.models.common import utcnow
from cycling_site.services import events, weigh_ins
from cycling_site.services.validation import FormErrors
from cycling_site.state.changes import put
from cycling_site.state.session import Rider, rider_action
from cycling_site.state.site_messages import display

PROOF_UPLOAD = "weight-proof"
# The dialog's messages that are not about its weight or proof field.
FORM_KEYS = ("event", "type", "form")
_log = logging.getLogger(__name__)


def item_key(event_id: object, kind: str) -> str:
    return f"{event_id}:{kind}"


def owed_items(db: Session, account: Account, now: datetime) -> list[dict] | None:
    """The weights the rider owes; None when they cannot be read: the banner alone keeps what it shows, and
    the rest of the page (whose reads may share this session) goes on."""
    try:
        return weigh_ins.items(db, account, now)
    except SQLAlchemyError:
        db.rollback()
        _log.exception("Weigh-ins could not be read")
        return None


def banner_item(item: dict) -> dict[str, str]:
    """One owed weight as the banner shows it."""
    return {
        "key": item_key(item["event_id"], item["type"]),
        "event_id": str(item["event_id"]),
        "event_name": item["event_name"],
        "type": item["type"],
        "title": weigh_ins.title(item["type"], item["event_name"], item["status"]),
        "start_time": item["start_time"],
        "end_time": item["end_time"],
        "status": item["status"],
    }


class WeighInState(rx.State):
    items: list[dict[str, str]] = []
    # The items whose window the page's clock has seen start.
    started: list[str] = []
    warnings: list[str] = []
    # The dialog: which item it is for (a copy, kept when the item goes at its end), and what it says.
    open_key: str = ""
    open_title: str = ""
    open_warning: str = ""
    weight: str = ""
    # The proof kept as soon as it was chosen: "file id|name".
    proof: str = ""
    proof_sending: bool = False
    errors: dict[str, str] = {}
    submitting: bool = False

    @rx.var
    def dialog_open(self) -> bool:
        return self.open_key != ""

    @rx.var
    def can_submit(self) -> bool:
        """Only within the window: started, and not yet ended (an ended item is gone)."""
        return self.open_key in self.started and any(item["key"] == self.open_key for item in self.items)

    @rx.var
    def proof_name(self) -> str:
        return self.proof.partition("|")[2]

    @rx.var
    def form_error(self) -> str:
        return next((self.errors[key] for key in FORM_KEYS if self.errors.get(key)), "")

    def _item(self, key: str) -> dict[str, str] | None:
        return next((item for item in self.items if item["key"] == key), None)

    @rx.event
    @rider_action(reads_only=True)
    async def load(self, rider: Rider):
        """The weights the rider owes, read afresh after a submit (on arrival the dashboard's header reads
        them)."""
        now = utcnow()
        self._show_owed(await rider.off_loop(owed_items, rider.account, now), now)

    def _show_owed(self, owed: list[dict] | None, now: datetime) -> None:
        """The banner shows what `owed_items` read at `now`; when it could not read, what it showed stays.
        Not an event: the browser never sends what the banner shows."""
        if owed is None:
            return
        items = [banner_item(item) for item in owed]
        # A window already open shows with the items, in the same update: waiting for its countdown's first
        # tick would show it a round trip after the dashboard and push the tabs down.
        started_by = weigh_ins.iso(now)
        opened = {item["key"] for item in items if item["start_time"] <= started_by}
        started = [item["key"] for item in items if item["key"] in opened or item["key"] in self.started]
        put(self, items=items, started=started, warnings=[])

    @rx.event
    def window_started(self, key: str) -> None:
        if self._item(key) is not None and key not in self.started:
            self.started = [*self.started, key]

    @rx.event
    def window_ended(self, key: str) -> None:
        """The banner's expired event: the item goes and the deadline warning shows (spec 1 section 8)."""
        item = self._item(key)
        if item is None:
            return
        self.items = [other for other in self.items if other["key"] != key]
        self.started = [other for other in self.started if other != key]
        warning = weigh_ins.deadline_passed(item["type"], item["event_name"])
        if warning not in self.warnings:
            self.warnings = [*self.warnings, warning]
        if self.open_key == key:
            self.open_warning = warning

    @rx.event
    def dismiss_warning(self, warning: str) -> None:
        self.warnings = [other for other in self.warnings if other != warning]

    @rx.event
    def open_dialog(self, key: str):
        item = self._item(key)
        if item is None or key not in self.started:
            return None
        self.open_key = key
        label = weigh_ins.label(item["type"])
        self.open_title = msg.DIALOG_TITLE.format(label=label, event=item["event_name"])
        self.open_warning = self.weight = self.proof = ""
        self.errors = {}
        return rx.clear_selected_files(PROOF_UPLOAD)

    @rx.event
    def set_dialog_open(self, is_open: bool) -> None:
        """Closing (Cancel, Escape, outside) drops what was typed; opening goes through open_dialog. The title
        stays: the dialog keeps its name while it fades out."""
        if not is_open and not self.submitting:
            self.open_key = self.open_warning = self.weight = self.proof = ""
            self.errors = {}

    @rx.event
    def set_weight(self, value: str) -> None:
        weight = str(value)[: weigh_ins.WEIGHT_TEXT_MAX + 1]
        if weight == self.weight:
            return
        self.weight = weight
        if "weight" in self.errors:
            self.errors = {name: text for name, text in self.errors.items() if name != "weight"}

    @rx.event
    def proof_rejected(self, codes: str) -> None:
        """The browser refused the file before sending it (too large, or not a photo or video)."""
        too_large = "file-too-large" in str(codes).split(",")
        text = files_msg.FILE_TOO_LARGE if too_large else msg.PROOF_TYPE_INVALID
        self.errors = {**self.errors, "proof": text}

    @rx.event
    @rider_action(busy="proof_sending")
    async def upload_proof(self, rider: Rider, files: list[rx.UploadFile]):
        """Keeps the proof as soon as it is chosen: a wrong file is told at once, and Submit sends no file."""
        if not files or self.open_key == "":
            return
        self.errors = {name: text for name, text in self.errors.items() if name != "proof"}
        self.proof = ""
        yield
        data = await files[0].read(weigh_ins.MAX_PROOF_BYTES + 1)
        try:
            row = await rider.off_loop(weigh_ins.keep_proof, rider.account, files[0].name or "", data)
        except FormErrors as exc:
            self.errors = {**self.errors, **exc.errors}
            return
        self.proof = f"{row.id}|{row.name}"

    @rx.event
    @rider_action(busy="submitting")
    async def submit(self, rider: Rider):
        """Stores the declaration with its kept proof; bad input leaves the dialog open with its messages and
        nothing stored. Done: the item goes, a toast says so and the rider's items are read again."""
        item = self._item(self.open_key)
        if item is None:
            return
        self.errors = {}
        try:
            submission = await rider.off_loop(
                weigh_ins.submit,
                rider.account,
                item["event_id"],
                item["type"],
                self.weight,
                None,
                utcnow(),
                kept_proof=self.proof.partition("|")[0] or None,
            )
        except events.EventNotFound:
            self.errors = {"event": events_msg.EVENT_NOT_FOUND}
            return
        except FormErrors as exc:
            self.errors = exc.errors
            return
        except Exception:
            _log.exception("Weight submission failed")
            self.errors = {"form": msg.SUBMIT_FAILED}
            return
        self.items = [other for other in self.items if other["key"] != item["key"]]
        self.open_key = self.open_warning = self.weight = self.proof = ""
        yield [
            rx.clear_selected_files(PROOF_UPLOAD),
            display(weigh_ins.submitted_message(submission.type), id="weigh-in-submitted"),
            WeighInState.load,
        ]
