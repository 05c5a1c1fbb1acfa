"""Sign-in, sign-out, sign-up and profile (spec 1 section 7, spec 2 section 7)."""

from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, StrictBool, WithJsonSchema

from cycling_site.api.answers import (
    CONSTANTS_SENT,
    Answer,
    AnswerModel,
    AnswerWithMessage,
    Message,
    UserProfile,
)
from cycling_site.api.deps import DB, OPTIONAL_SESSION, CurrentAccount, SentToken
from cycling_site.api.errors import documented
from cycling_site.api.rules import EMAIL, Whole, requires
from cycling_site.messages import accounts as msg
from cycling_site.services import accounts, countries, parental_consent, teams
from cycling_site.services.accounts import RegistrationForm

router = APIRouter(prefix="/auth", tags=["auth"])

SHORT = 300
TOKEN = 4096


# The name rule (services.accounts.NAME_PATTERN) on the trimmed name: 1 to NAME_MAX characters, the first and
# the last not a space.
NAME_CHARACTERS = r"A-Za-z0-9_\-.\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F"
_NAME_END = f"[{NAME_CHARACTERS}]"
NAME = {"pattern": rf"^\s*{_NAME_END}(?:[ {NAME_CHARACTERS}]{{0,{accounts.NAME_MAX - 2}}}{_NAME_END})?\s*$"}
PASSWORD = {"minLength": accounts.PASSWORD_MIN, "maxLength": accounts.PASSWORD_MAX}
HUMAN_CHECK = {"minLength": 1}


class LoginIn(BaseModel):
    model_config = requires("email", "password", "token")

    email: str = Field(max_length=SHORT, json_schema_extra=EMAIL)
    password: str = Field(max_length=SHORT, json_schema_extra=PASSWORD)
    remember: StrictBool = True
    token: str | None = Field(
        default=None, max_length=TOKEN, description="ALTCHA payload", json_schema_extra=HUMAN_CHECK
    )


COUNTRY = {"enum": [country_id for country_id, _name in countries.countries()]}
GENDER = {"enum": list(accounts.GENDERS)}
WEIGHT = {"minimum": accounts.WEIGHT_MIN, "maximum": accounts.WEIGHT_MAX}
HEIGHT = {"minimum": accounts.HEIGHT_MIN, "maximum": accounts.HEIGHT_MAX}


class RegisterIn(BaseModel):
    model_config = requires(
        "firstname", "lastname", "email", "password", "dob", "weight", "height", "consent", "token"
    )

    firstname: str = Field(default="", max_length=SHORT, json_schema_extra=NAME)
    lastname: str = Field(default="", max_length=SHORT, json_schema_extra=NAME)
    email: str = Field(default="", max_length=SHORT, json_schema_extra=EMAIL)
    password: str = Field(default="", max_length=SHORT, json_schema_extra=PASSWORD)
    dob: Annotated[date | None, WithJsonSchema({"type": "string", "format": "date"})] = Field(
        default=None, description="From 1900 to the age of 6 today"
    )
    country: Whole = Field(
        default_factory=countries.default_country_id,
        description="ISO 3166 numeric",
        json_schema_extra=COUNTRY,
    )
    gender: Whole = Field(default=0, json_schema_extra=GENDER)
    weight: Annotated[float | None, WithJsonSchema({"type": "number", "description": "kg", **WEIGHT})] = None
    height: Annotated[float | None, WithJsonSchema({"type": "number", "description": "cm", **HEIGHT})] = None
    consent: StrictBool = Field(
        default=False, description="The terms must be accepted", json_schema_extra={"const": True}
    )
    IsAllowedToSendMarketingEmails: StrictBool = False
    token: str | None = Field(
        default=None, max_length=TOKEN, description="ALTCHA payload", json_schema_extra=HUMAN_CHECK
    )


class ConsentNeeded(AnswerModel):
    """A kid whose parent has not approved the account yet: the consent page takes over."""

    model_config = CONSTANTS_SENT

    requiresParentalConsent: Literal[True] = True
    childUserId: str = Field(description="A short-lived handle for the parental consent calls")
    userAge: int


class SignedIn(AnswerModel):
    token: str = Field(description="The bearer token of the new session")
    user: UserProfile
    uuId: str


class LoginAnswer(Answer[Literal["key"] | ConsentNeeded | SignedIn]):
    """A session (token, user, uuId); or the literal "key" when the password must be reset first; or
    parental consent still needed."""


class Registered(AnswerModel):
    model_config = CONSTANTS_SENT

    requiresParentalConsent: Literal[False] = False
    key: str = Field(description="The key for /auth/verify with the e-mailed code")


class RegisterAnswer(AnswerWithMessage[ConsentNeeded | Registered]):
    """An adult's account waits for e-mail verification; a kid's for a parent's consent."""


def _client_address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.post("/login", responses=documented(400, 403, 413, 429, 503))
def login(body: LoginIn, request: Request, session: DB) -> LoginAnswer:
    """Answers token, user and uuId; or the literal 'key' (forced reset); or requiresParentalConsent."""
    result = accounts.login(
        session, body.email, body.password, body.remember, body.token, _client_address(request)
    )
    if result.kind == "key":
        return LoginAnswer(data="key")
    if result.kind == "consent":
        handle = parental_consent.consent_handle(result.account)
        return LoginAnswer(data=ConsentNeeded(childUserId=handle, userAge=result.user_age))
    user = accounts.profile(result.account, teams.header_team(session, result.account.id))
    return LoginAnswer(data=SignedIn(token=result.token, user=user, uuId=result.account.uuid))


@router.post("/logout", openapi_extra=OPTIONAL_SESSION, responses=documented(403, 413, 503))
def logout(session: DB, token: SentToken) -> Message:
    """Ends the session that is sent, if any; without one it answers the same."""
    accounts.logout(session, token)
    return Message(message=msg.LOGGED_OUT)


@router.post("/register", responses=documented(400, 403, 413, 503))
def register(body: RegisterIn, session: DB) -> RegisterAnswer:
    form = RegistrationForm(
        firstname=body.firstname,
        lastname=body.lastname,
        email=body.email,
        password=body.password,
        dob=body.dob.isoformat() if body.dob else "",
        country=str(body.country),
        gender=str(body.gender),
        weight="" if body.weight is None else str(body.weight),
        height="" if body.height is None else str(body.height),
        consent=body.consent,
        marketing_consent=body.IsAllowedToSendMarketingEmails,
        token=body.token or "",
    )
    registration = accounts.register(session, form)
    if registration.requires_parental_consent:
        handle = parental_consent.consent_handle(registration.account)
        consent = ConsentNeeded(childUserId=handle, userAge=registration.user_age)
        return RegisterAnswer(message=msg.REGISTERED_KID, data=consent)
    return RegisterAnswer(message=msg.REGISTERED, data=Registered(key=registration.verification_key))


@router.get("/profile", responses=documented(401, 503))
def profile(account: CurrentAccount, session: DB) -> Answer[UserProfile]:
    return Answer[UserProfile](data=accounts.profile(account, teams.header_team(session, account.id)))
