"""What both review consoles (race control's and finance's) share: the items of a queue as the services give
them, with their files and decisions, made ready for the page (times in the site's zone), and the state
mixin with the vars and handlers the shared widgets use."""

import dataclasses
from collections.abc import Collection

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.local_time import local_text
from cycling_site.messages import race_control as msg
from cycling_site.models import Account
from cycling_site.models.race_control import ReviewStatus
from cycling_site.services import rider_files
from cycling_site.services.race_control import ReviewRefused
from cycling_site.services.validation import FormErrors
from cycling_site.state.session import Rider, rider_action

STATUSES = tuple(ReviewStatus)


@dataclasses.dataclass
class ProofFile:
    id: str
    name: str
    content_type: str


@dataclasses.dataclass
class Decision:
    decision: str
    reason: str
    decided_at: str
    decided_by: str


@dataclasses.dataclass
class ReviewItem:
    id: str
    rider_name: str
    rider_email: str
    status: str
    submitted_at: str
    title: str
    details: list[list[str]]
    files: list[ProofFile]
    reason: str
    history: list[Decision]


@dataclasses.dataclass
class QueueTab:
    kind: str
    title: str
    pending: int


def review_item(found: dict) -> ReviewItem:
    return ReviewItem(
        id=str(found["id"]),
        rider_name=found["rider_name"],
        rider_email=found["rider_email"],
        status=found["status"],
        submitted_at=local_text(found["submitted_at"]),
        title=found["title"],
        details=[[str(label), str(value)] for label, value in found["details"]],
        files=[ProofFile(str(file["id"]), file["name"], file["content_type"]) for file in found["files"]],
        reason=found["reason"],
        history=[
            Decision(entry["decision"], entry["reason"], local_text(entry["decided_at"]), entry["decided_by"])
            for entry in found["history"]
        ],
    )


def dialog_title(items: list[ReviewItem], item_id: str, verb: str) -> str:
    """The decision dialog's title: what is decided, and on whose item (just the verb once the item has left
    the list, decided by someone else)."""
    item = next((item for item in items if item.id == item_id), None)
    return f"{verb}: {item.rider_name} · {item.title}" if item else verb


class ReviewConsoleBase(rx.State, mixin=True):
    """A console's queue, status filter and decision dialog, the same on both pages.

    A mixin, so each console is a state of its own right under the root, not a substate of a shared one.
    Each console sets its first queue in `kind` and says who may act, which queues it shows, how it reads
    them and how its service decides."""

    allowed: bool = False
    checked: bool = False
    kind: str = ""
    status: str = ReviewStatus.pending
    tabs: list[QueueTab] = []
    items: list[ReviewItem] = []
    loading: bool = False
    error: str = ""
    notice: str = ""
    deciding_id: str = ""
    deciding_approve: bool = True
    decision_error: str = ""
    deciding: bool = False

    @rx.var
    def approve_label(self) -> str:
        return "Approve"

    @rx.var
    def deciding_title(self) -> str:
        return dialog_title(
            self.items, self.deciding_id, self.approve_label if self.deciding_approve else "Reject"
        )

    def _may_act(self, account: Account) -> bool:
        """Whether the account has a role this console serves."""
        raise NotImplementedError

    def _views(self) -> Collection[str]:
        """The kinds `choose_queue` accepts."""
        raise NotImplementedError

    async def _refresh(self, rider: Rider) -> None:
        """Counts and the chosen queue, read afresh; refused for anyone `_may_act` refuses."""
        raise NotImplementedError

    async def _submit_decision(self, rider: Rider, form_data: dict) -> None:
        """Decides the item `deciding_id` in the console's service, which raises ReviewRefused."""
        raise NotImplementedError

    def _decided(self) -> str:
        """How the notice names the decision just saved."""
        return "approved" if self.deciding_approve else "rejected"

    def _clear_messages(self) -> None:
        """What a reload or another queue leaves behind: the last notice and an open decision."""
        self.notice = self.deciding_id = ""

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def load(self, rider: Rider):
        self._clear_messages()
        try:
            await self._refresh(rider)
        except SQLAlchemyError:
            self.error = msg.LOAD_FAILED

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def choose_queue(self, rider: Rider, kind: str):
        if kind in self._views():
            self.kind = kind
            self._clear_messages()
        await self._refresh(rider)

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def choose_status(self, rider: Rider, status: str | list[str]):
        if isinstance(status, str) and status in STATUSES:
            self.status = status
            self.notice = ""
        await self._refresh(rider)

    @rx.event
    def ask(self, item_id: str, approve: bool) -> None:
        """Opens the decision dialog for one item of the list on screen."""
        if any(item.id == item_id for item in self.items):
            self.deciding_id = item_id
            self.deciding_approve = approve is True
            self.decision_error = ""

    @rx.event
    def close_decision(self) -> None:
        self.deciding_id = ""
        self.decision_error = ""

    @rx.event
    @rider_action(busy="deciding", errors="decision_error")
    async def decide(self, rider: Rider, form_data: dict):
        """A decision already made by someone else, or on an item gone, shows the list as it is now."""
        try:
            await self._submit_decision(rider, form_data)
        except ReviewRefused as exc:
            self.decision_error = str(exc)
            if str(exc) in (msg.ALREADY_DECIDED, msg.NOT_FOUND):
                await self._refresh(rider)
            return
        self.notice = msg.DECIDED.format(decision=self._decided())
        self.deciding_id = ""
        await self._refresh(rider)

    @rx.event
    @rider_action(errors="error")
    async def open_file(self, rider: Rider, file_id: str):
        """A link valid for minutes, made for this session only."""
        if not self._may_act(rider.account):
            return None
        try:
            url = await rider.off_loop(rider_files.download_url, rider.account, file_id)
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
            return None
        return rx.redirect(url, is_external=True)
