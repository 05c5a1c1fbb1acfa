"""Race control's console (/race-control): a queue per kind of rider submission, filtered by status, and a
decision per item. Who may decide is checked on the server on every event (roles race_control and
admin); the decision itself is guarded, so a second race controller is told the item is already decided.
"""

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.messages import race_control as msg
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.services import race_control, review_queues, rider_files
from cycling_site.services.validation import FormErrors
from cycling_site.state.review_console import STATUSES, QueueTab, ReviewItem, dialog_title, review_item
from cycling_site.state.session import Rider, rider_action


class RaceControlState(rx.State):
    allowed: bool = False
    checked: bool = False
    kind: str = ReviewKind.pre_verification
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
    def asks_category(self) -> bool:
        """Only approving a pre-verification sets something more: the rider's category."""
        return self.deciding_approve and self.kind == ReviewKind.pre_verification

    @rx.var
    def deciding_title(self) -> str:
        return dialog_title(self.items, self.deciding_id, "Approve" if self.deciding_approve else "Reject")

    def _refresh(self, rider: Rider) -> None:
        """Counts and the chosen queue, read afresh; refused for anyone but race control."""
        self.checked = True
        self.allowed = race_control.is_reviewer(rider.account)
        if not self.allowed:
            self.tabs, self.items = [], []
            return
        counts = review_queues.pending_counts(rider.db, rider.account)
        self.tabs = [
            QueueTab(kind, queue.title, counts[kind]) for kind, queue in review_queues.QUEUES.items()
        ]
        found = review_queues.items(rider.db, rider.account, self.kind, self.status)
        self.items = [review_item(item) for item in found]

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def load(self, rider: Rider):
        self.notice = ""
        self.deciding_id = ""
        try:
            self._refresh(rider)
        except SQLAlchemyError:
            self.error = msg.LOAD_FAILED

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def choose_queue(self, rider: Rider, kind: str):
        if kind in review_queues.QUEUES:
            self.kind = kind
            self.notice = ""
        self._refresh(rider)

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def choose_status(self, rider: Rider, status: str | list[str]):
        if isinstance(status, str) and status in STATUSES:
            self.status = status
            self.notice = ""
        self._refresh(rider)

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
        item_id = int(self.deciding_id) if self.deciding_id.isdigit() else 0
        category = str(form_data.get("category", ""))
        try:
            review_queues.decide(
                rider.db,
                rider.account,
                self.kind,
                item_id,
                self.deciding_approve,
                str(form_data.get("reason", "")),
                int(category) if category.isdigit() else None,
            )
        except race_control.ReviewRefused as exc:
            self.decision_error = str(exc)
            if str(exc) in (msg.ALREADY_DECIDED, msg.NOT_FOUND):
                self._refresh(rider)
            return
        self.notice = msg.DECIDED.format(decision="approved" if self.deciding_approve else "rejected")
        self.deciding_id = ""
        self._refresh(rider)

    @rx.event
    @rider_action(errors="error")
    async def open_file(self, rider: Rider, file_id: str):
        """A link valid for minutes, made for this race controller's session only."""
        if not race_control.is_reviewer(rider.account):
            return None
        try:
            url = rider_files.download_url(rider.db, rider.account, file_id)
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
            return None
        return rx.redirect(url, is_external=True)
