"""Finance's console (/finance): wallet verifications and withdrawals to decide, and prize money of past
events to credit. Who may act is checked on the server on every event (roles finance and admin); a
decision or a credit is guarded in the service, so a second officer is told it was already made.
"""

import dataclasses

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.local_time import local_text
from cycling_site.messages import finance as msg
from cycling_site.messages import race_control as race_control_msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.models.race_control import ReviewKind, ReviewStatus
from cycling_site.services import finance, rider_files, wallet
from cycling_site.services.race_control import ReviewRefused
from cycling_site.services.validation import FormErrors
from cycling_site.state.review_console import STATUSES, QueueTab, ReviewItem, dialog_title, review_item
from cycling_site.state.session import Rider, rider_action

PRIZES = ReviewKind.prize_credit
VIEWS = (*finance.QUEUES, PRIZES)


@dataclasses.dataclass
class PrizeRider:
    row: str
    account_id: str
    name: str
    email: str
    credited: str


@dataclasses.dataclass
class PrizeEvent:
    id: str
    name: str
    starts_at: str
    riders: list[PrizeRider]


def _prize_event(found: dict) -> PrizeEvent:
    return PrizeEvent(
        id=str(found["id"]),
        name=found["name"],
        starts_at=local_text(found["starts_at"]),
        riders=[
            PrizeRider(
                row=f"{found['id']}-{rider['account_id']}",
                account_id=str(rider["account_id"]),
                name=rider["name"],
                email=rider["email"],
                credited=rider["credited"],
            )
            for rider in found["riders"]
        ],
    )


class FinanceState(rx.State):
    allowed: bool = False
    checked: bool = False
    kind: str = ReviewKind.wallet_verification
    status: str = ReviewStatus.pending
    tabs: list[QueueTab] = []
    items: list[ReviewItem] = []
    prize_events: list[PrizeEvent] = []
    loading: bool = False
    error: str = ""
    notice: str = ""
    deciding_id: str = ""
    deciding_approve: bool = True
    decision_error: str = ""
    deciding: bool = False
    crediting: bool = False
    prize_error: str = ""
    # The prize row ("event-rider") the error belongs to.
    prize_error_row: str = ""

    @rx.var
    def showing_prizes(self) -> bool:
        return self.kind == PRIZES

    @rx.var
    def approve_label(self) -> str:
        """Approving a withdrawal is paying it."""
        return msg.MARK_PAID if self.kind == ReviewKind.withdrawal else "Approve"

    @rx.var
    def asks_transaction_id(self) -> bool:
        return self.deciding_approve and self.kind == ReviewKind.withdrawal

    @rx.var
    def deciding_title(self) -> str:
        return dialog_title(
            self.items, self.deciding_id, self.approve_label if self.deciding_approve else "Reject"
        )

    def _refresh(self, rider: Rider) -> None:
        """Counts and the chosen view, read afresh; refused for anyone but finance."""
        self.checked = True
        self.allowed = finance.is_officer(rider.account)
        if not self.allowed:
            self.tabs, self.items, self.prize_events = [], [], []
            return
        counts = finance.pending_counts(rider.db, rider.account)
        self.tabs = [QueueTab(kind, queue.title, counts[kind]) for kind, queue in finance.QUEUES.items()]
        if self.kind == PRIZES:
            self.items = []
            self.prize_events = [
                _prize_event(event) for event in finance.prize_events(rider.db, rider.account)
            ]
        else:
            self.prize_events = []
            found = finance.items(rider.db, rider.account, self.kind, self.status)
            self.items = [review_item(item) for item in found]

    def _rider_name(self, event_id: str, account_id: str) -> str:
        for event in self.prize_events:
            for rider in event.riders:
                if event.id == event_id and rider.account_id == account_id:
                    return rider.name
        return "the rider"

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def load(self, rider: Rider):
        self.notice = self.prize_error = self.deciding_id = ""
        try:
            self._refresh(rider)
        except SQLAlchemyError:
            self.error = race_control_msg.LOAD_FAILED

    @rx.event
    @rider_action(busy="loading", errors="error")
    async def choose_queue(self, rider: Rider, kind: str):
        if kind in VIEWS:
            self.kind = kind
            self.notice = self.prize_error = self.deciding_id = ""
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
        try:
            finance.decide(
                rider.db,
                rider.account,
                self.kind,
                self.deciding_id,
                self.deciding_approve,
                str(form_data.get("reason", "")),
                str(form_data.get("transaction_id", "")),
            )
        except ReviewRefused as exc:
            self.decision_error = str(exc)
            if str(exc) in (race_control_msg.ALREADY_DECIDED, race_control_msg.NOT_FOUND):
                self._refresh(rider)
            return
        paid = self.deciding_approve and self.kind == ReviewKind.withdrawal
        decision = "paid" if paid else "approved" if self.deciding_approve else "rejected"
        self.notice = race_control_msg.DECIDED.format(decision=decision)
        self.deciding_id = ""
        self._refresh(rider)

    @rx.event
    @rider_action(busy="crediting", errors="prize_error")
    async def credit_prize(self, rider: Rider, form_data: dict):
        """One rider's prize of one past event; the service refuses a second credit and a bad amount."""
        event_id, account_id = str(form_data.get("event_id", "")), str(form_data.get("account_id", ""))
        self.notice = ""
        self.prize_error_row = f"{event_id}-{account_id}"
        try:
            credit = finance.credit_prize(
                rider.db, rider.account, event_id, account_id, form_data.get("amount")
            )
        except ReviewRefused as exc:
            self.prize_error = str(exc)
            self._refresh(rider)
            return
        amount = wallet.btc_text(credit.amount)
        self.notice = wallet_msg.PRIZE_CREDITED.format(
            amount=amount, rider=self._rider_name(event_id, account_id)
        )
        self.prize_error_row = ""
        self._refresh(rider)

    @rx.event
    @rider_action(errors="error")
    async def open_file(self, rider: Rider, file_id: str):
        """A link valid for minutes, made for this officer's session only."""
        if not finance.is_officer(rider.account):
            return None
        try:
            url = rider_files.download_url(rider.db, rider.account, file_id)
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
            return None
        return rx.redirect(url, is_external=True)
