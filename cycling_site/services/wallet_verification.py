"""Wallet account verification (spec 3): the phone and e-mail codes, and the form finance reviews.

Each code is six digits through the outbox (SMS or WhatsApp for the phone, e-mail for the Binance
address), with the wallet's code rules (services/wallet_codes.py). The form proves both. Status
moves unverified -> pending (on submit) -> approved or rejected; a rejected rider may verify again.
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime

import phonenumbers
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from cycling_site.messages import wallet as msg
from cycling_site.models import Account, CodePurpose
from cycling_site.models.events import RiderFile
from cycling_site.models.wallet import WalletStatus, WalletVerification
from cycling_site.services import outbox, rider_files, wallet, wallet_codes
from cycling_site.services.validation import (
    FormErrors,
    checkbox_on,
    has_nul,
    normalize_email,
)
from cycling_site.settings import settings

DEFAULT_COUNTRY = settings.default_country
OTP_TYPES = ("sms", "whatsapp")
PHONE_TEXT_MAX = 30
MAX_SCREENSHOTS = 5


def check_phone(number: object, country: object = DEFAULT_COUNTRY) -> str:
    """A number valid for the chosen country (spec 3 section 5), in E.164."""
    text = str(number or "").strip()
    region = str(country or DEFAULT_COUNTRY).strip().upper()
    if not text:
        raise FormErrors({"phone_number": msg.PHONE_REQUIRED})
    if len(text) > PHONE_TEXT_MAX or has_nul(text) or region not in phonenumbers.SUPPORTED_REGIONS:
        raise FormErrors({"phone_number": msg.PHONE_FORMAT})
    try:
        parsed = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        raise FormErrors({"phone_number": msg.PHONE_FORMAT}) from None
    if not phonenumbers.is_valid_number_for_region(parsed, region) and not (
        text.startswith("+") and phonenumbers.is_valid_number(parsed)
    ):
        raise FormErrors({"phone_number": msg.PHONE_INVALID})
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def check_email(text: object) -> str:
    raw = str(text or "").strip()
    if not raw:
        raise FormErrors({"binance_email": msg.BINANCE_EMAIL_REQUIRED})
    email = normalize_email(raw)
    if email is None:
        raise FormErrors({"binance_email": msg.EMAIL_INVALID})
    return email


def _refuse_if_open(session: Session, account: Account, change_wallet: bool = False) -> None:
    """Nothing to verify while a verification waits, nor once one is approved unless the rider changes their
    wallet (withdrawals go only to the verified one, so changing it means verifying again)."""
    status = wallet.status_of(session, account)
    if status == WalletStatus.pending:
        raise FormErrors({"form": msg.ALREADY_PENDING})
    if status == WalletStatus.approved and not change_wallet:
        raise FormErrors({"form": msg.ALREADY_VERIFIED})


def request_phone_otp(
    session: Session,
    account: Account,
    phone_number: object,
    country: object = DEFAULT_COUNTRY,
    channel: object = "sms",
    address: str = "",
    change_wallet: bool = False,
) -> str:
    """POST api/wallet/request-phone-otp: a code to the phone by SMS (or WhatsApp); answers the E.164
    number it went to."""
    wallet.open_for(account)
    _refuse_if_open(session, account, change_wallet)
    phone = check_phone(phone_number, country)
    channel = str(channel or "sms")
    if channel not in OTP_TYPES:
        raise FormErrors({"type": msg.OTP_FAILED})
    message = wallet_codes.Message(channel, msg.OTP_EMAIL_SUBJECT, msg.OTP_TEXT)
    wallet_codes.send(session, account, CodePurpose.wallet_phone, phone, message, "phone_number", address)
    return phone


def request_email_otp(
    session: Session, account: Account, email: object, address: str = "", change_wallet: bool = False
) -> str:
    """POST api/wallet/request-email-otp: a code to the Binance e-mail address; answers the address."""
    wallet.open_for(account)
    _refuse_if_open(session, account, change_wallet)
    recipient = check_email(email)
    message = wallet_codes.Message("email", f"{msg.OTP_EMAIL_SUBJECT} · {settings.site_name}", msg.OTP_TEXT)
    wallet_codes.send(
        session, account, CodePurpose.wallet_email, recipient, message, "binance_email", address
    )
    return recipient


@dataclass
class Upload:
    name: str
    data: bytes


@dataclass
class VerificationForm:
    binance_email: str = ""
    phone_number: str = ""
    country: str = DEFAULT_COUNTRY
    wallet_address: str = ""
    phone_otp: str = ""
    email_otp: str = ""
    terms_accepted: object = False
    passport_proof: Upload | None = None
    binance_screenshots: list[Upload] = field(default_factory=list)
    # A verified rider verifying another wallet, which replaces theirs once finance approves it.
    change_wallet: bool = False


def _field_errors(form: VerificationForm) -> tuple[dict[str, str], str, str, str]:
    errors: dict[str, str] = {}
    email = phone = address = ""
    try:
        email = check_email(form.binance_email)
    except FormErrors as exc:
        errors.update(exc.errors)
    try:
        phone = check_phone(form.phone_number, form.country)
    except FormErrors as exc:
        errors.update(exc.errors)
    try:
        address = wallet.check_address(form.wallet_address)
    except FormErrors as exc:
        blank = not str(form.wallet_address or "").strip()
        errors["wallet_address"] = msg.WALLET_ADDRESS_REQUIRED if blank else exc.errors["wallet_address"]
    for name, value, required in (
        ("phone_otp", form.phone_otp, msg.PHONE_OTP_REQUIRED),
        ("email_otp", form.email_otp, msg.EMAIL_OTP_REQUIRED),
    ):
        value = str(value or "").strip()
        if not value:
            errors[name] = required
        elif not wallet_codes.well_formed(value):
            errors[name] = msg.OTP_WRONG
    if form.passport_proof is None:
        errors["passport_proof"] = msg.PASSPORT_REQUIRED
    else:
        try:
            rider_files.check_content("passport_proof", form.passport_proof.data)
        except FormErrors as exc:
            errors.update(exc.errors)
    if not form.binance_screenshots:
        errors["binance_screenshot"] = msg.SCREENSHOT_REQUIRED
    elif len(form.binance_screenshots) > MAX_SCREENSHOTS:
        errors["binance_screenshot"] = msg.TOO_MANY_SCREENSHOTS
    else:
        for upload in form.binance_screenshots:
            try:
                rider_files.check_content("binance_screenshot", upload.data)
            except FormErrors as exc:
                errors.update(exc.errors)
                break
    if not checkbox_on(form.terms_accepted):
        errors["terms_accepted"] = msg.TERMS_REQUIRED
    return errors, email, phone, address


def _retire_approved(session: Session, account: Account) -> None:
    """The approved verification stays on record but stops being current, and the rider is told: from now
    on the new one decides (withdrawals wait for finance to verify it)."""
    retired = session.execute(
        update(WalletVerification)
        .where(
            col(WalletVerification.account_id) == account.id,
            col(WalletVerification.status) == WalletStatus.approved,
            col(WalletVerification.current).is_(True),
        )
        .values(current=None)
    )
    if retired.rowcount:  # type: ignore[attr-defined]
        subject = f"{msg.WALLET_CHANGE_SUBJECT} · {settings.site_name}"
        body = msg.WALLET_CHANGE_BODY.format(support=settings.support_email)
        outbox.queue_email(session, account.email, subject, body)


def submit(session: Session, account: Account, form: VerificationForm) -> WalletVerification:
    """POST api/wallet/verify-account: every field checked and both codes proven before anything is kept;
    then the files, the verification (pending) and the used codes in one go."""
    wallet.open_for(account)
    _refuse_if_open(session, account, form.change_wallet)
    errors, email, phone, address = _field_errors(form)
    if errors:
        raise FormErrors(errors)
    phone_code = wallet_codes.check(
        session, account, CodePurpose.wallet_phone, form.phone_otp.strip(), phone, "phone_otp"
    )
    email_code = wallet_codes.check(
        session, account, CodePurpose.wallet_email, form.email_otp.strip(), email, "email_otp"
    )
    passport = form.passport_proof
    assert passport is not None
    stored: list[RiderFile] = []
    try:
        stored.append(rider_files.store(session, account, "passport_proof", passport.name, passport.data))
        for upload in form.binance_screenshots:
            stored.append(rider_files.store(session, account, "binance_screenshot", upload.name, upload.data))
        now = datetime.now(UTC)
        for code_row in (phone_code, email_code):
            session.add(code_row)
            code_row.used_at = now
        if form.change_wallet:
            _retire_approved(session, account)
        verification = WalletVerification(
            account_id=account.id,
            binance_email=email,
            phone=phone,
            wallet_address=address,
            passport_file_id=stored[0].id,
            screenshot_file_ids=[row.id for row in stored[1:]],
        )
        session.add(verification)
        session.commit()
    except IntegrityError:
        session.rollback()
        rider_files.discard(session, stored)
        raise FormErrors({"form": msg.ALREADY_PENDING}) from None
    except Exception:
        session.rollback()
        rider_files.discard(session, stored)
        raise
    session.refresh(verification)
    return verification
