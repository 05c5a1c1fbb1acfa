"""The wallet summary (/wallet) and the withdrawal form (/wallet/withdrawal-request), spec 3.

Both show the wallet header, so the form's state is a substate of the summary's: one read of the wallet
fills the header of either page. Kids have no wallet: the service refuses them and they go to their
dashboard (spec 2).
"""

import asyncio
import logging
import uuid

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.local_time import local_text
from cycling_site.messages import wallet as msg
from cycling_site.models.wallet import WalletStatus, WithdrawalStatus
from cycling_site.routes import path_of
from cycling_site.services import countries, wallet
from cycling_site.services.validation import FormErrors
from cycling_site.state.session import Rider, rider_action
from cycling_site.state.site_messages import display

PAGE_WINDOW = 5
SEARCH_DEBOUNCE_MS = 500
AMOUNT_TEXT_MAX = 20
REDIRECT_SECONDS = 1.5
REENABLE_SECONDS = 2
# Badge text and tone by verification status (spec 3 section 2); any other status reads unverified.
BADGES = {
    WalletStatus.pending: (msg.BADGE_PENDING, "warning"),
    WalletStatus.rejected: (msg.BADGE_REJECTED, "danger"),
    WalletStatus.approved: (msg.BADGE_VERIFIED, "success"),
}
STATUS_TONES = {WithdrawalStatus.approved: "success", WithdrawalStatus.rejected: "danger"}
_log = logging.getLogger(__name__)


def dashboard() -> rx.event.EventSpec:
    return rx.redirect(path_of("new_activities"), replace=True)


def page_window(current: int, last: int) -> list[int]:
    """Up to five page numbers around the current page, kept inside 1..last."""
    first = max(1, min(current - PAGE_WINDOW // 2, last - PAGE_WINDOW + 1))
    return list(range(first, min(last, first + PAGE_WINDOW - 1) + 1))


def table_row(row: dict) -> dict[str, str]:
    """One withdrawal as the table shows it, its status tone chosen here."""
    return {
        "request_no": row["request_no"],
        "transaction_id": row["transaction_id"] or "—",
        "transaction_url": row["transaction_url"],
        "amount": f"{row['amount']} {row['currency']}",
        "wallet_address": row["wallet_address"],
        "requested_at": local_text(row["requested_at"]),
        "status": str(row["status"]),
        "tone": STATUS_TONES.get(row["status"], "warning"),
    }


def keep_amount_characters(text: str) -> str:
    """What the amount field keeps of a keystroke: digits and the first decimal point (spec 3 section 2)."""
    kept, seen_point = [], False
    for character in str(text):
        if character.isascii() and character.isdigit():
            kept.append(character)
        elif character == "." and not seen_point:
            kept.append(character)
            seen_point = True
    return "".join(kept)[:AMOUNT_TEXT_MAX]


class WalletState(rx.State):
    loading: bool = True
    load_error: str = ""
    # The header (user and walletData of spec 3 section 3).
    name: str = ""
    jersey: str = ""
    country_code: str = ""
    country_name: str = ""
    status: str = ""
    email: str = ""
    wallet_address: str = ""
    balance: str = "0.000000"
    currency: str = wallet.CURRENCY
    last_updated: str = ""
    total_withdrawals: str = "0.000000"
    pending_requests: int = 0
    completed_transactions: int = 0
    remaining: int = 0
    monthly_limit: int = 0
    fee_percent: float = 0.0
    minimum: str = ""
    # The transactions table.
    transactions: list[dict[str, str]] = []
    search: str = ""
    current_page: int = 1
    last_page: int = 1
    total: int = 0
    transactions_error: str = ""

    @rx.var
    def badge_text(self) -> str:
        return BADGES.get(self.status, (msg.BADGE_UNVERIFIED, ""))[0]

    @rx.var
    def badge_tone(self) -> str:
        return BADGES.get(self.status, ("", "danger"))[1]

    @rx.var
    def limit_reached(self) -> bool:
        return self.monthly_limit > 0 and self.remaining <= 0

    @rx.var
    def limit_warning(self) -> str:
        if self.monthly_limit <= 0 or self.remaining > wallet.WARN_AT_REMAINING:
            return ""
        if self.remaining <= 0:
            return msg.LIMIT_REACHED
        return msg.LIMIT_WARNING.format(count=self.remaining, limit=self.monthly_limit)

    @rx.var
    def pages(self) -> list[int]:
        return page_window(self.current_page, self.last_page)

    def _fill(self, summary: dict) -> None:
        user, data = summary["user"], summary["walletData"]
        self.name = user["name"]
        self.jersey = user["jersey"]
        self.status = user["verificationStatus"]
        self.email = user["email"]
        self.wallet_address = user["walletAddress"]
        self.balance = data["balance"]
        self.currency = data["currency"]
        self.last_updated = local_text(data["lastUpdated"]) if data["lastUpdated"] else "—"
        self.total_withdrawals = data["totalWithdrawals"]
        self.pending_requests = data["pendingRequests"]
        self.completed_transactions = data["completedTransactions"]
        self.remaining = data["remainingTransactions"]
        self.monthly_limit = data["maxTransactionsPerMonth"]
        self.fee_percent = float(data["processingFee"])
        self.minimum = data["minimumTransaction"]

    async def _read_summary(self, rider: Rider) -> bool:
        """Fills the header; False when the wallet could not be read (the page says so)."""
        self.loading = True
        self.load_error = ""
        try:
            self._fill(await rider.off_loop(wallet.summary, rider.account))
            self.country_code = countries.country_alpha2(rider.account.country)
            self.country_name = countries.country_name(rider.account.country)
        except SQLAlchemyError:
            _log.exception("The wallet could not be read")
            self.load_error = msg.LOAD_FAILED
            return False
        finally:
            self.loading = False
        return True

    async def _read_transactions(self, rider: Rider, page: int) -> None:
        self.transactions_error = ""
        try:
            rows, meta = await rider.off_loop(
                wallet.transactions, rider.account, page, wallet.PER_PAGE, self.search
            )
        except SQLAlchemyError:
            _log.exception("The transactions could not be read")
            self.transactions_error = msg.TRANSACTIONS_FAILED
            rows, meta = [], {"current_page": 1, "last_page": 1, "total": 0}
        self.transactions = [table_row(row) for row in rows]
        self.current_page = meta["current_page"]
        self.last_page = meta["last_page"]
        self.total = meta["total"]

    @rx.event
    @rider_action()
    async def load(self, rider: Rider):
        if rider.account.is_kid:
            return dashboard()
        self.search = ""
        # Back on the wallet, the last withdrawal form is done with: the next one is a new request.
        (await self.get_state(WithdrawalState))._request_key = ""
        if await self._read_summary(rider):
            await self._read_transactions(rider, 1)
        return None

    @rx.event
    @rider_action()
    async def set_search(self, rider: Rider, text: str):
        """The search box, debounced in the browser (500 ms); a new search starts at page 1."""
        if rider.account.is_kid:
            return dashboard()
        self.search = str(text)[: wallet.SEARCH_MAX]
        await self._read_transactions(rider, 1)
        return None

    @rx.event
    @rider_action()
    async def go_to_page(self, rider: Rider, page: int):
        if rider.account.is_kid:
            return dashboard()
        await self._read_transactions(rider, int(page))
        return None


class WithdrawalState(WalletState):
    """The withdrawal form: approved accounts only, to the verified wallet, confirmed with an e-mailed code;
    fee and total follow the amount as it is typed."""

    amount: str = ""
    withdraw_email: str = ""
    address: str = ""
    # The code button: "" (Get Code), "sending" or "wait"; a new wait restarts its countdown.
    code_stage: str = ""
    waits: int = 0
    errors: dict[str, str] = {}
    submitting: bool = False
    # The form's idempotency key, kept on the server from the form's opening until the rider is back on the
    # wallet: a submit sent again (its answer lost on a dropped connection) is the same request, and a page
    # that connects again after placing it shows that it was placed.
    _request_key: str = ""

    @rx.var
    def fee_text(self) -> str:
        found = wallet.quote(self.amount)
        return wallet.btc_text(found.fee) if found else "—"

    @rx.var
    def total_text(self) -> str:
        found = wallet.quote(self.amount)
        return wallet.btc_text(found.total) if found else "—"

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("account", "") or self.errors.get("form", "")

    @rx.event
    @rider_action()
    async def open_form(self, rider: Rider):
        """Fills the header and the form with the verified wallet's e-mail and address."""
        if rider.account.is_kid:
            return dashboard()
        self.amount = self.code_stage = ""
        self.errors = {}
        self.submitting = False
        if self._request_key and await rider.off_loop(wallet.placed_with, rider.account, self._request_key):
            return [
                rx.redirect(path_of("wallet"), replace=True),
                display(msg.WITHDRAWAL_SUBMITTED, id="withdrawal-submitted"),
            ]
        self._request_key = self._request_key or uuid.uuid4().hex
        if not await self._read_summary(rider):
            return None
        try:
            verification = await rider.off_loop(wallet.approved_verification, rider.account)
        except FormErrors:
            return [rx.redirect(path_of("wallet"), replace=True), rx.toast.warning(msg.NOT_VERIFIED)]
        self.withdraw_email = verification.binance_email
        self.address = verification.wallet_address
        return None

    def _forget_error(self, name: str) -> None:
        if name in self.errors:
            self.errors = {key: text for key, text in self.errors.items() if key != name}

    @rx.event
    def set_amount(self, text: str) -> None:
        """The amount as typed (the field keeps its digits and first point in the browser): the fee and the
        total follow it."""
        amount = keep_amount_characters(text)
        if amount != self.amount:
            self.amount = amount
            self._forget_error("amount")

    @rx.event
    @rider_action()
    async def request_code(self, rider: Rider):
        """E-mails the confirmation code to the verified address; a refusal puts the button back to Get Code
        with the message beside the code field."""
        if self.code_stage != "":
            return
        self._forget_error("code")
        self.code_stage = "sending"
        yield
        try:
            await rider.off_loop(wallet.request_withdrawal_code, rider.account, self.router.session.client_ip)
        except FormErrors as exc:
            self.code_stage = ""
            self.errors = {**self.errors, **exc.errors}
            return
        except SQLAlchemyError:
            _log.exception("A withdrawal code could not be sent")
            self.code_stage = ""
            yield rx.toast.error(msg.OTP_FAILED)
            return
        self.code_stage = "wait"
        self.waits += 1
        yield display(msg.OTP_SENT_EMAIL, id="withdrawal-code-sent")

    @rx.event
    def wait_over(self) -> None:
        if self.code_stage == "wait":
            self.code_stage = ""

    @rx.event
    @rider_action()
    async def submit(self, rider: Rider, form_data: dict):
        """Spec 3 section 4: the button stays disabled while the request goes and for 2 s after any
        outcome; on success a toast, then the summary after 1.5 s."""
        if self.submitting:
            return
        self.submitting = True
        self.errors = {}
        yield
        self.amount = keep_amount_characters(str(form_data.get("amount", ""))[:40])
        form = {"amount": self.amount, "code": str(form_data.get("code", ""))[:20]}
        try:
            await rider.off_loop(wallet.withdraw, rider.account, form, None, self._request_key)
        except FormErrors as exc:
            self.errors = exc.errors
            yield WithdrawalState.reenable
            return
        except SQLAlchemyError:
            _log.exception("The withdrawal could not be stored")
            self.errors = {"form": msg.WITHDRAWAL_FAILED}
            yield WithdrawalState.reenable
            return
        yield [
            display(msg.WITHDRAWAL_SUBMITTED, id="withdrawal-submitted"),
            WithdrawalState.reenable,
            WithdrawalState.back_to_wallet,
        ]

    @rx.event(background=True)
    async def reenable(self):
        await asyncio.sleep(REENABLE_SECONDS)
        async with self:
            self.submitting = False

    @rx.event(background=True)
    async def back_to_wallet(self):
        await asyncio.sleep(REDIRECT_SECONDS)
        yield rx.redirect(path_of("wallet"))
