"""Race control's console (/race-control): a queue per kind of rider submission, filtered by status, and a
decision per item. Who may decide is checked on the server on every event (roles race_control and
admin); the decision itself is guarded, so a second race controller is told the item is already decided.
"""

from collections.abc import Collection

import reflex as rx

from cycling_site.models import Account
from cycling_site.models.race_control import ReviewKind
from cycling_site.services import race_control, review_queues
from cycling_site.state.review_console import QueueTab, ReviewConsoleBase, review_item
from cycling_site.state.session import Rider


class RaceControlState(ReviewConsoleBase, rx.State):
    kind: str = ReviewKind.pre_verification

    @rx.var
    def asks_category(self) -> bool:
        """Only approving a pre-verification sets something more: the rider's category."""
        return self.deciding_approve and self.kind == ReviewKind.pre_verification

    def _may_act(self, account: Account) -> bool:
        return race_control.is_reviewer(account)

    def _views(self) -> Collection[str]:
        return review_queues.QUEUES

    async def _refresh(self, rider: Rider) -> None:
        self.checked = True
        self.allowed = self._may_act(rider.account)
        if not self.allowed:
            self.tabs, self.items = [], []
            return
        counts = await rider.off_loop(review_queues.pending_counts, rider.account)
        self.tabs = [
            QueueTab(kind, queue.title, counts[kind]) for kind, queue in review_queues.QUEUES.items()
        ]
        found = await rider.off_loop(review_queues.items, rider.account, self.kind, self.status)
        self.items = [review_item(item) for item in found]

    async def _submit_decision(self, rider: Rider, form_data: dict) -> None:
        category = str(form_data.get("category", ""))
        await rider.off_loop(
            review_queues.decide,
            rider.account,
            self.kind,
            int(self.deciding_id) if self.deciding_id.isdigit() else 0,
            self.deciding_approve,
            str(form_data.get("reason", "")),
            int(category) if category.isdigit() else None,
        )
