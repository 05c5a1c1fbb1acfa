"""Finance's console (/finance): wallet verifications and withdrawals to decide, and prize money of past
events to credit. Who may act is checked on the server on every event (roles finance and admin); a
decision or a credit is guarded in the service, so a second officer is told it was already made.
"""

import dataclasses
from collections.abc import Collection

import reflex as rx

from cycling_site.local_time import local_text
from cycling_site.messages import finance as msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.models import Account
from cycling_site.models.race_control import ReviewKind
from cycling_site.services import finance, wallet
from cycling_site.services.race_control import ReviewRefused
from cycling_site.state.review_console import QueueTab, ReviewConsoleBase, review_item
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


class FinanceState(ReviewConsoleBase, rx.State):
    kind: str = ReviewKind.wallet_verification
    prize_events: list[PrizeEvent] = []
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

    def _may_act(self, account: Account) -> bool:
        return finance.is_officer(account)

    def _views(self) -> Collection[str]:
        return VIEWS

    def _clear_messages(self) -> None:
        self.notice = self.prize_error = self.deciding_id = ""

    def _decided(self) -> str:
        paid = self.deciding_approve and self.kind == ReviewKind.withdrawal
        return "paid" if paid else super()._decided()

    async def _refresh(self, rider: Rider) -> None:
        self.checked = True
        self.allowed = self._may_act(rider.account)
        if not self.allowed:
            self.tabs, self.items, self.prize_events = [], [], []
            return
        counts = await rider.off_loop(finance.pending_counts, rider.account)
        self.tabs = [QueueTab(kind, queue.title, counts[kind]) for kind, queue in finance.QUEUES.items()]
        if self.kind == PRIZES:
            self.items = []
            events = await rider.off_loop(finance.prize_events, rider.account)
            self.prize_events = [_prize_event(event) for event in events]
        else:
            self.prize_events = []
            found = await rider.off_loop(finance.items, rider.account, self.kind, self.status)
            self.items = [review_item(item) for item in found]

    async def _submit_decision(self, rider: Rider, form_data: dict) -> None:
        await rider.off_loop(
            finance.decide,
            rider.account,
            self.kind,
            self.deciding_id,
            self.deciding_approve,
            str(form_data.get("reason", "")),
            str(form_data.get("transaction_id", "")),
        )

    def _rider_name(self, event_id: str, account_id: str) -> str:
        for event in self.prize_events:
            for rider in event.riders:
                if event.id == event_id and rider.account_id == account_id:
                    return rider.name
        return "the rider"

    @rx.event
    @rider_action(busy="crediting", errors="prize_error")
    async def credit_prize(self, rider: Rider, form_data: dict):
        """One rider's prize of one past event; the service refuses a second credit and a bad amount."""
        event_id, account_id = str(form_data.get("event_id", "")), str(form_data.get("account_id", ""))
        self.notice = ""
        self.prize_error_row = f"{event_id}-{account_id}"
        try:
            credit = await rider.off_loop(
                finance.credit_prize, rider.account, event_id, account_id, form_data.get("amount")
            )
        except ReviewRefused as exc:
            self.prize_error = str(exc)
            await self._refresh(rider)
            return
        amount = wallet.btc_text(credit.amount)
        self.notice = wallet_msg.PRIZE_CREDITED.format(
            amount=amount, rider=self._rider_name(event_id, account_id)
        )
        self.prize_error_row = ""
        await self._refresh(rider)
