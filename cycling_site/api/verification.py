"""E-mail verification, parental consent and passwords (spec 2 section 7, "../api/auth/...")."""

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, Field, StrictBool

from cycling_site.api.answers import Answer, AnswerModel, AnswerWithMessage, Key, Message, Verified
from cycling_site.api.auth import PASSWORD
from cycling_site.api.deps import DB
from cycling_site.api.errors import documented
from cycling_site.api.rules import EMAIL, Whole, requires
from cycling_site.messages import accounts as msg
from cycling_site.services import parental_consent, passwords, verification

router = APIRouter(prefix="/auth", tags=["verification"])

SHORT = 300


class CodeIn(BaseModel):
    code: str = Field(max_length=SHORT)
    isKid: StrictBool = False


OTP = {"pattern": r"^\s*[0-9]{6}\s*$"}


class OtpIn(BaseModel):
    model_config = requires("key", "otp")

    key: str = Field(max_length=SHORT)
    otp: str = Field(
        default="", max_length=SHORT, description="The e-mailed 6-digit code", json_schema_extra=OTP
    )


class KeyIn(BaseModel):
    key: str = Field(max_length=SHORT)


class EmailIn(BaseModel):
    email: str = Field(max_length=SHORT, json_schema_extra=EMAIL)


ConsentHandle = Annotated[
    str,
    Field(max_length=SHORT, description="The short-lived handle the kid's sign-up or sign-in answered"),
]


class ConsentIn(BaseModel):
    parentEmail: str = Field(max_length=SHORT, json_schema_extra=EMAIL)
    childUserId: ConsentHandle
    userAge: Whole | None = None


class ChildIn(BaseModel):
    childUserId: ConsentHandle


class DecisionIn(BaseModel):
    code: str = Field(max_length=SHORT)
    approve: StrictBool


class ResetIn(BaseModel):
    password: str = Field(max_length=SHORT, json_schema_extra=PASSWORD)
    repeatPassword: str = Field(max_length=SHORT)
    code: str = Field(max_length=SHORT)


class Approval(AnswerModel):
    approved: bool = Field(description="Whether the parent has approved the kid's account")


class ConsentReview(AnswerModel):
    """What the parent's approval page shows about the kid."""

    childName: str
    childAge: int
    childEmail: str


@router.post("/verify-user", responses=documented(400, 403, 413, 503))
def verify_user(body: CodeIn, session: DB) -> AnswerWithMessage[Verified]:
    verification.verify_link(session, body.code)
    return AnswerWithMessage[Verified](message=msg.EMAIL_VERIFIED, data=Verified())


@router.post("/verify-user-resend", responses=documented(400, 403, 413, 429, 503))
def verify_user_resend(body: CodeIn, session: DB) -> Message:
    verification.resend_for_link(session, body.code)
    return Message(message=msg.VERIFICATION_SENT)


@router.post("/verify", responses=documented(400, 403, 413, 503))
def verify_otp(body: OtpIn, session: DB) -> AnswerWithMessage[Verified]:
    verification.verify_otp(session, body.key, body.otp)
    return AnswerWithMessage[Verified](message=msg.EMAIL_VERIFIED, data=Verified())


@router.post("/key/new", responses=documented(400, 403, 413, 429, 503))
def new_key(body: KeyIn, session: DB) -> AnswerWithMessage[Key]:
    """Sends a fresh code; the answer's key replaces the stored one."""
    key = verification.resend_for_key(session, body.key)
    return AnswerWithMessage[Key](message=msg.VERIFICATION_SENT, data=Key(key=key))


@router.post("/verify_email", responses=documented(400, 403, 413, 503))
def resend_verification(body: EmailIn, session: DB) -> Message:
    verification.resend_for_email(session, body.email)
    return Message(message=msg.RESEND_NEUTRAL)


@router.post("/parental-consent", responses=documented(400, 403, 413, 429, 503))
def parental_consent_request(body: ConsentIn, session: DB) -> Message:
    parental_consent.request_consent(session, body.childUserId, body.parentEmail)
    return Message(message=msg.CONSENT_SENT)


@router.post("/resend-parental-consent", responses=documented(400, 403, 413, 429, 503))
def parental_consent_resend(body: ConsentIn, session: DB) -> Message:
    parental_consent.request_consent(session, body.childUserId, body.parentEmail)
    return Message(message=msg.CONSENT_SENT)


@router.post("/check-parental-approval", responses=documented(400, 403, 413, 503))
def check_parental_approval(body: ChildIn, session: DB) -> Answer[Approval]:
    return Answer[Approval](data=Approval(approved=parental_consent.is_approved(session, body.childUserId)))


@router.get("/parental-approval/{code}", responses=documented(400, 404, 503))
def parental_approval_review(code: str, session: DB) -> Answer[ConsentReview]:
    request = parental_consent.review(session, code)
    review = ConsentReview(
        childName=request.child_name, childAge=request.child_age, childEmail=request.child_email
    )
    return Answer[ConsentReview](data=review)


@router.post("/parental-approval", responses=documented(400, 403, 413, 503))
def parental_approval_decide(body: DecisionIn, session: DB) -> Message:
    parental_consent.decide(session, body.code, body.approve)
    return Message(message=msg.CONSENT_APPROVED if body.approve else msg.CONSENT_DECLINED)


@router.post("/forget_password", responses=documented(400, 403, 413, 429, 503))
def forget_password(body: EmailIn, session: DB) -> Message:
    passwords.request_reset(session, body.email)
    return Message(message=msg.RESET_SENT)


@router.post("/reset_password", responses=documented(400, 403, 413, 503))
def reset_password(body: ResetIn, session: DB) -> Message:
    passwords.reset(session, body.code, body.password, body.repeatPassword)
    return Message(message=msg.PASSWORD_RESET_DONE)
