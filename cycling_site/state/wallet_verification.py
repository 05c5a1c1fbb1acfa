"""Wallet account verification (/wallet/account-verification, spec 3 sections 2, 4 and 5).

Unverified and rejected riders fill the form; a verified one goes back to the wallet with the spec's info
toast, and one whose verification waits goes back too (never a second submission). Each code button goes
Get Code -> Sending... -> Wait Ns (60 s, counted by the page's clock) -> Get Code.

Files are checked by content and kept as soon as they are chosen, so a wrong one is refused at once; the
submission sends their content to the service, which keeps its own copies, and the chosen ones go.
"""

import logging

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from cycling_site.messages import wallet as msg
from cycling_site.models import Account
from cycling_site.models.wallet import WalletStatus
from cycling_site.routes import path_of
from cycling_site.services import countries, rider_files, wallet, wallet_verification
from cycling_site.services.validation import FormErrors
from cycling_site.services.wallet_verification import Upload, VerificationForm
from cycling_site.state.session import Rider, rider_action
from cycling_site.state.site_messages import display

PASSPORT = "passport_proof"
SCREENSHOT = "binance_screenshot"
PASSPORT_UPLOAD = "passport-upload"
SCREENSHOT_UPLOAD = "screenshot-upload"
# The phone country picker's options: built once, written into the page, never sent with the state.
PHONE_COUNTRY_OPTIONS = [
    [country.code, f"{country.emoji} {country.name} (+{country.dial_code})"]
    for country in countries.phone_countries()
]
# Where each code button's messages show: beside the field the code is sent to.
CODE_FIELDS = {"phone": "phone_number", "email": "binance_email"}
TEXT_FIELDS = ("binance_email", "phone_number", "country", "wallet_address", "phone_otp", "email_otp")
_log = logging.getLogger(__name__)


def _back_to_wallet(toast: rx.event.EventSpec) -> list[rx.event.EventSpec]:
    return [rx.redirect(path_of("wallet"), replace=True), toast]


def _uploads(db: Session, account: Account, kind: str, file_ids: list[str]) -> list[Upload]:
    """The chosen files of one kind, as the verification form takes them."""
    rows = [rider_files.owned(db, account, file_id, kind) for file_id in file_ids]
    return [Upload(row.name, rider_files.read(row)) for row in rows]


def _discard(db: Session, account: Account, chosen: list[tuple[str, str]]) -> None:
    """The files a stored verification has copied are no longer kept as the rider's uploads."""
    rider_files.discard(db, [rider_files.owned(db, account, file_id, kind) for kind, file_id in chosen])


# The query that opens the form for a verified rider changing their wallet.
CHANGE_QUERY = ("change", "1")


class WalletVerificationState(rx.State):
    country: str = wallet_verification.DEFAULT_COUNTRY
    phone_number: str = ""
    phone_ok: bool = False
    binance_email: str = ""
    # Each code button: "" (Get Code), "sending" or "wait"; a new wait restarts its countdown.
    phone_code: str = ""
    email_code: str = ""
    waits: int = 0
    passport: list[dict[str, str]] = []
    screenshots: list[dict[str, str]] = []
    uploading: str = ""
    errors: dict[str, str] = {}
    submitting: bool = False
    # A verified rider verifying another wallet (/wallet/account-verification?change=1).
    change_wallet: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    def _forget_error(self, name: str) -> None:
        if name in self.errors:
            self.errors = {key: text for key, text in self.errors.items() if key != name}

    def _check_phone(self) -> None:
        try:
            wallet_verification.check_phone(self.phone_number, self.country)
            self.phone_ok = True
        except FormErrors:
            self.phone_ok = False

    @rx.event
    @rider_action()
    async def load(self, rider: Rider):
        if rider.account.is_kid:
            return rx.redirect(path_of("new_activities"), replace=True)
        self.country = wallet_verification.DEFAULT_COUNTRY
        self.phone_number = self.binance_email = self.phone_code = self.email_code = self.uploading = ""
        self.phone_ok = self.submitting = False
        self.passport, self.screenshots, self.errors = [], [], {}
        status = await rider.off_loop(wallet.status_of, rider.account)
        changing = self.router.url.query_parameters.get(CHANGE_QUERY[0]) == CHANGE_QUERY[1]
        self.change_wallet = status == WalletStatus.approved and changing
        if status == WalletStatus.approved and not changing:
            return _back_to_wallet(rx.toast.info(msg.ALREADY_VERIFIED, id="wallet-already-verified"))
        if status == WalletStatus.pending:
            return _back_to_wallet(rx.toast.info(msg.ALREADY_PENDING, id="wallet-already-pending"))
        return None

    @rx.event
    def set_country(self, code: str) -> None:
        self.country = str(code)[:2].upper()
        self._forget_error("phone_number")
        self._check_phone()

    @rx.event
    def set_phone(self, text: str) -> None:
        phone_number = str(text)[: wallet_verification.PHONE_TEXT_MAX]
        if phone_number == self.phone_number:
            return
        self.phone_number = phone_number
        self._forget_error("phone_number")
        self._check_phone()

    @rx.event
    def set_email(self, text: str) -> None:
        binance_email = str(text)[:254]
        if binance_email == self.binance_email:
            return
        self.binance_email = binance_email
        self._forget_error("binance_email")

    # --- The codes ----------------------------------------------------------------------------------------

    @rx.event
    @rider_action()
    async def request_code(self, rider: Rider, channel: str):
        """Sends the phone or e-mail code; a refusal puts the button back to Get Code with the message
        beside its field."""
        if channel not in CODE_FIELDS or getattr(self, f"{channel}_code") != "":
            return
        if channel == "phone" and not self.phone_ok:
            return
        field_name = CODE_FIELDS[channel]
        self._forget_error(field_name)
        setattr(self, f"{channel}_code", "sending")
        yield
        address = self.router.session.client_ip
        try:
            if channel == "phone":
                await rider.off_loop(
                    wallet_verification.request_phone_otp,
                    rider.account,
                    self.phone_number,
                    self.country,
                    "sms",
                    address,
                    self.change_wallet,
                )
            else:
                await rider.off_loop(
                    wallet_verification.request_email_otp,
                    rider.account,
                    self.binance_email,
                    address,
                    self.change_wallet,
                )
        except FormErrors as exc:
            setattr(self, f"{channel}_code", "")
            self.errors = {**self.errors, field_name: next(iter(exc.errors.values()))}
            return
        except SQLAlchemyError:
            _log.exception("A wallet code could not be sent")
            setattr(self, f"{channel}_code", "")
            yield rx.toast.error(msg.OTP_FAILED)
            return
        setattr(self, f"{channel}_code", "wait")
        self.waits += 1
        yield display(msg.OTP_SENT_PHONE if channel == "phone" else msg.OTP_SENT_EMAIL)

    @rx.event
    def wait_over(self, channel: str) -> None:
        if channel in CODE_FIELDS and getattr(self, f"{channel}_code") == "wait":
            setattr(self, f"{channel}_code", "")

    # --- The files ----------------------------------------------------------------------------------------

    @rx.event
    @rider_action()
    async def add_files(self, rider: Rider, kind: str, files: list[rx.UploadFile]):
        """Keeps the chosen images once their content is checked (the passport replaces the one before);
        a batch with a refused file keeps none of it. Kids have no wallet, so nothing of theirs is kept."""
        if rider.account.is_kid or kind not in (PASSPORT, SCREENSHOT) or not files:
            return
        self._forget_error(kind)
        kept = self.screenshots if kind == SCREENSHOT else []
        if len(kept) + len(files) > (wallet_verification.MAX_SCREENSHOTS if kind == SCREENSHOT else 1):
            self.errors = {**self.errors, kind: msg.TOO_MANY_SCREENSHOTS}
            return
        self.uploading = kind
        yield
        try:
            batch = [(file.name or "", await file.read(rider_files.WALLET_FILE_BYTES + 1)) for file in files]
            for _name, data in batch:
                rider_files.check_content(kind, data)
            stored = [
                await rider.off_loop(rider_files.store, rider.account, kind, name, data)
                for name, data in batch
            ]
        except FormErrors as exc:
            self.errors = {**self.errors, kind: next(iter(exc.errors.values()))}
            return
        finally:
            self.uploading = ""
        chosen = [*kept, *({"id": str(row.id), "name": row.name} for row in stored)]
        if kind == PASSPORT:
            self.passport = chosen
        else:
            self.screenshots = chosen

    @rx.event
    def files_refused(self, kind: str, codes: str) -> None:
        """The browser's own check (size, type, count) refused the files before any was sent."""
        if kind not in (PASSPORT, SCREENSHOT):
            return
        found = set(str(codes).split(","))
        if "too-many-files" in found:
            text = msg.TOO_MANY_SCREENSHOTS
        elif "file-too-large" in found:
            text = msg.FILE_TOO_LARGE
        else:
            text = msg.FILE_TYPE
        self.errors = {**self.errors, kind: text}

    @rx.event
    def remove_file(self, kind: str, file_id: str) -> None:
        if kind == PASSPORT:
            self.passport = [file for file in self.passport if file["id"] != file_id]
        elif kind == SCREENSHOT:
            self.screenshots = [file for file in self.screenshots if file["id"] != file_id]

    async def _uploads(self, rider: Rider, kind: str, chosen: list[dict[str, str]]) -> list[Upload]:
        return await rider.off_loop(_uploads, rider.account, kind, [file["id"] for file in chosen])

    # --- Submit ---------------------------------------------------------------------------------------------

    @rx.event
    @rider_action(busy="submitting")
    async def submit(self, rider: Rider, form_data: dict):
        self.errors = {}
        try:
            passport = await self._uploads(rider, PASSPORT, self.passport)
            form = VerificationForm(
                **{name: str(form_data.get(name, "")) for name in TEXT_FIELDS},
                terms_accepted=form_data.get("terms_accepted", False),
                passport_proof=passport[0] if passport else None,
                binance_screenshots=await self._uploads(rider, SCREENSHOT, self.screenshots),
                change_wallet=self.change_wallet,
            )
            await rider.off_loop(wallet_verification.submit, rider.account, form)
        except FormErrors as exc:
            self.errors = exc.errors
            if "form" in exc.errors:
                yield rx.toast.error(msg.VERIFICATION_FAILED, description=exc.errors["form"])
            return
        except (SQLAlchemyError, OSError):
            _log.exception("A wallet verification could not be stored")
            self.errors = {"form": msg.VERIFICATION_FAILED}
            return
        chosen = [
            (kind, file["id"])
            for kind, files in ((PASSPORT, self.passport), (SCREENSHOT, self.screenshots))
            for file in files
        ]
        await rider.off_loop(_discard, rider.account, chosen)
        self.passport, self.screenshots = [], []
        yield [
            display(msg.VERIFICATION_SUBMITTED, id="verification-submitted"),
            rx.redirect(path_of("wallet")),
        ]
