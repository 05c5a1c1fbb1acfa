"""The prize wallet (spec 3 section 7): GET api/auth/user-wallet, and under api/wallet the transactions, the
withdrawal, the account verification and its two codes.

Every call refuses kid accounts (403) and answers only the signed-in rider's own wallet. Bad input answers
400 with a message per field and changes nothing."""

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from starlette.datastructures import UploadFile

from cycling_site.api.answers import CONSTANTS_SENT, Answer, AnswerModel, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import EMAIL, Whole, requires
from cycling_site.messages import wallet as msg
from cycling_site.services import rider_files, wallet, wallet_verification
from cycling_site.services.validation import checkbox_on
from cycling_site.services.wallet_verification import MAX_SCREENSHOTS, Upload, VerificationForm

router = APIRouter(tags=["wallet"])

FILE_READ_MAX = rider_files.WALLET_FILE_BYTES + 1


class WalletUser(AnswerModel):
    name: str
    jersey: str
    countryFlag: str
    verified: bool
    verificationStatus: str = Field(description="unverified, pending, approved or rejected")
    email: str
    walletAddress: str = Field(description="The address of the approved verification")
    isKid: bool


class WalletData(AnswerModel):
    balance: str = Field(description="BTC with 6 decimals", examples=["0.010702"])
    currency: str
    balanceUSD: float | None = Field(description="Not shown")
    lastUpdated: datetime | None
    totalWithdrawals: str = Field(description="BTC paid out, 6 decimals")
    pendingRequests: int
    completedTransactions: int
    minimumTransaction: str
    maxTransactionsPerMonth: int
    currentMonthTransactions: int
    remainingTransactions: int
    processingFee: str = Field(description="Percent of the amount, added on top", examples=["1.5"])


class WalletOut(AnswerModel):
    user: WalletUser
    walletData: WalletData


class TransactionsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    page: Whole = Field(default=1, ge=1, le=100_000)
    perPage: Whole = Field(default=wallet.PER_PAGE, ge=1, le=wallet.PER_PAGE_MAX)
    search: str = Field(default="", max_length=wallet.SEARCH_MAX * 2)


class TransactionOut(AnswerModel):
    id: int
    request_no: str
    transaction_id: str
    transaction_url: str = Field(description="The payout's transaction on a block explorer; empty until paid")
    amount: str
    fee: str
    total: str
    currency: str
    wallet_address: str
    requested_at: datetime
    status: str = Field(description="pending, approved (paid) or rejected")
    email: str
    reason: str


class TransactionsMeta(AnswerModel):
    current_page: int
    last_page: int
    total: int
    per_page: int


class TransactionsOut(AnswerModel):
    """The spec's shape: the page of transactions beside its meta."""

    model_config = CONSTANTS_SENT

    status: Literal[True] = True
    data: list[TransactionOut]
    meta: TransactionsMeta


class WithdrawIn(BaseModel):
    """The amount as typed (digits and one point, at most 6 decimals); fee and total are worked out on the
    server from the amount, whatever a caller sends for them. The money goes to the verified wallet: e-mail
    and address may be left out, and given they must be the verified ones. `code` is the one e-mailed by
    request-withdrawal-code."""

    model_config = requires("amount", "code", extra="forbid")

    amount: str | float = Field(default="", examples=["0.001000"])
    code: str = Field(
        default="",
        max_length=20,
        examples=["123456"],
        description="Six digits, e-mailed",
        json_schema_extra={"pattern": r"^\s*[0-9]{6}\s*$"},
    )
    email: str = Field(default="", max_length=500, description="The verified wallet's e-mail, if given")
    wallet_address: str = Field(
        default="", max_length=wallet.ADDRESS_MAX * 2, description="The verified wallet's address, if given"
    )
    fee: str | float | None = Field(default=None, description="Ignored: the server's fee applies")
    total: str | float | None = Field(default=None, description="Ignored")
    currency: str = Field(default=wallet.CURRENCY, pattern="^BTC$")


class WithdrawalOut(AnswerModel):
    request_no: str
    amount: str
    fee: str
    total: str
    currency: str


class Withdrawn(Message):
    data: WithdrawalOut


CHANGE_WALLET = "A verified rider verifying another wallet, which replaces theirs once finance approves it"


class PhoneOtpIn(BaseModel):
    model_config = requires("phone_number", extra="forbid")

    phone_number: str = Field(
        default="", max_length=60, examples=["50 123 4567"], json_schema_extra={"pattern": "[0-9]"}
    )
    country: str = Field(default=wallet_verification.DEFAULT_COUNTRY, max_length=2, description="ISO alpha-2")
    type: str = Field(
        default="sms",
        description="sms or whatsapp",
        json_schema_extra={"enum": list(wallet_verification.OTP_TYPES)},
    )
    change_wallet: StrictBool = Field(default=False, description=CHANGE_WALLET)


class EmailOtpIn(BaseModel):
    model_config = requires("email", extra="forbid")

    email: str = Field(default="", max_length=500, json_schema_extra=EMAIL)
    change_wallet: StrictBool = Field(default=False, description=CHANGE_WALLET)


class VerificationOut(AnswerModel):
    id: int
    status: str


class VerificationSubmitted(Message):
    data: VerificationOut


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.get("/auth/user-wallet", responses=documented(401, 403, 503))
def user_wallet(account: CurrentAccount, session: DB) -> Answer[WalletOut]:
    """The header, the badges and the overview cards of the wallet summary."""
    return Answer[WalletOut](data=WalletOut.model_validate(wallet.summary(session, account)))


@router.post("/wallet/transactions", responses=documented(400, 401, 403, 413, 503))
def transactions(body: TransactionsIn, account: CurrentAccount, session: DB) -> TransactionsOut:
    """The rider's withdrawals, newest first; search matches the request number, transaction id, amount,
    address, status or e-mail as shown."""
    rows, meta = wallet.transactions(session, account, body.page, body.perPage, body.search)
    return TransactionsOut(
        data=[TransactionOut.model_validate(row) for row in rows], meta=TransactionsMeta.model_validate(meta)
    )


@router.post("/wallet/withdraw", responses=documented(400, 401, 403, 413, 503))
def withdraw(
    body: WithdrawIn,
    account: CurrentAccount,
    session: DB,
    idempotency_key: Annotated[str, Header(max_length=wallet.REQUEST_KEY_MAX)] = "",
) -> Withdrawn:
    """Approved accounts only, to the verified wallet, confirmed with the e-mailed code. Amount plus fee must
    be covered by the balance and is held from then on; the month's request limit applies (a rejected
    request gives its turn back). The rider is e-mailed that the request was made. A request sent again
    with the `Idempotency-Key` of one already made (its answer lost) answers that one and moves nothing."""
    form = body.model_dump(exclude={"fee", "total", "currency"})
    made = wallet.withdraw(session, account, form, key=idempotency_key)
    data = WithdrawalOut(
        request_no=wallet.request_no(made),
        amount=wallet.btc_text(made.amount),
        fee=wallet.btc_text(made.fee),
        total=wallet.btc_text(made.total),
        currency=made.currency,
    )
    return Withdrawn(message=msg.WITHDRAWAL_SUBMITTED, data=data)


@router.post("/wallet/request-withdrawal-code", responses=documented(401, 403, 413, 429, 503))
def request_withdrawal_code(request: Request, account: CurrentAccount, session: DB) -> Message:
    """A six-digit code to the verified wallet's e-mail address, confirming one withdrawal; one request a
    minute."""
    wallet.request_withdrawal_code(session, account, _address(request))
    return Message(message=msg.OTP_SENT_EMAIL)


@router.post("/wallet/request-phone-otp", responses=documented(400, 401, 403, 413, 429, 503))
def request_phone_otp(body: PhoneOtpIn, request: Request, account: CurrentAccount, session: DB) -> Message:
    """A six-digit code to the phone (valid for its country), by SMS or WhatsApp; one request a minute."""
    wallet_verification.request_phone_otp(
        session, account, body.phone_number, body.country, body.type, _address(request), body.change_wallet
    )
    return Message(message=msg.OTP_SENT_PHONE)


@router.post("/wallet/request-email-otp", responses=documented(400, 401, 403, 413, 429, 503))
def request_email_otp(body: EmailOtpIn, request: Request, account: CurrentAccount, session: DB) -> Message:
    """A six-digit code to the Binance e-mail address; one request a minute."""
    wallet_verification.request_email_otp(session, account, body.email, _address(request), body.change_wallet)
    return Message(message=msg.OTP_SENT_EMAIL)


def _verify_form() -> dict[str, Any]:
    """The OpenAPI of the multipart form (read by hand below, so every rule answers with its own message)."""
    image = {"type": "string", "format": "binary"}
    form = {
        "type": "object",
        "properties": {
            "binance_email": {"type": "string", "format": "email"},
            "phone_number": {"type": "string", "pattern": "[0-9]", "examples": ["50 123 4567"]},
            "country": {"type": "string", "default": "AE", "description": "ISO alpha-2 of the phone"},
            "wallet_address": {"type": "string", "pattern": r"\S", "description": "A Bitcoin address"},
            "phone_otp": {"type": "string", "pattern": "^[0-9]{6}$"},
            "email_otp": {"type": "string", "pattern": "^[0-9]{6}$"},
            "passport_proof": {**image, "description": "JPEG or PNG, up to 5 MB, checked by its content"},
            "binance_screenshot": {
                "type": "array",
                "items": image,
                "minItems": 1,
                "maxItems": MAX_SCREENSHOTS,
                "description": "1 to 5 JPEG or PNG images, up to 5 MB each",
            },
            "terms_accepted": {"type": "boolean", "const": True},
            "change_wallet": {"type": "boolean", "default": False, "description": CHANGE_WALLET},
        },
        "required": [
            "binance_email",
            "phone_number",
            "wallet_address",
            "phone_otp",
            "email_otp",
            "passport_proof",
            "binance_screenshot",
            "terms_accepted",
        ],
    }
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": form}}}}


@router.post(
    "/wallet/verify-account", openapi_extra=_verify_form(), responses=documented(400, 401, 403, 413, 503)
)
async def verify_account(request: Request, account: CurrentAccount, session: DB) -> VerificationSubmitted:
    """Both codes must be the last ones sent to this phone and address; the files are checked by content.
    Nothing is kept unless everything is right; a second verification while one is pending (or approved) is
    refused."""
    form = await request.form()
    values: dict[str, str] = {}
    passport: Upload | None = None
    screenshots: list[Upload] = []
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            if not value.filename:
                continue
            upload = Upload(value.filename, await value.read(FILE_READ_MAX))
            if name == "passport_proof" and passport is None:
                passport = upload
            elif (
                name in ("binance_screenshot", "binance_screenshot[]") and len(screenshots) <= MAX_SCREENSHOTS
            ):
                screenshots.append(upload)
        else:
            values.setdefault(name, value)
    verification = wallet_verification.submit(
        session,
        account,
        VerificationForm(
            binance_email=values.get("binance_email", ""),
            phone_number=values.get("phone_number", ""),
            country=values.get("country", wallet_verification.DEFAULT_COUNTRY),
            wallet_address=values.get("wallet_address", ""),
            phone_otp=values.get("phone_otp", ""),
            email_otp=values.get("email_otp", ""),
            terms_accepted=values.get("terms_accepted", ""),
            passport_proof=passport,
            binance_screenshots=screenshots,
            change_wallet=checkbox_on(values.get("change_wallet", "")),
        ),
    )
    data = VerificationOut(id=verification.id or 0, status=verification.status)
    return VerificationSubmitted(message=msg.VERIFICATION_SUBMITTED, data=data)
