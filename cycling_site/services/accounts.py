"""Accounts: sign-up rules, sign-in, sign-out and the profile answer."""

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from cycling_site.db import get_session
from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, Connection, OAuthState, OutboxMessage
from cycling_site.models.accounts import DEFAULT_GENDER
from cycling_site.services import human_check, rate_limit, teams, tokens, verification
from cycling_site.services.countries import default_country_id, is_country
from cycling_site.services.validation import FormErrors, TooManyAttempts, has_nul, normalize_email

MIN_AGE = 6
ADULT_AGE = 18
WEIGHT_MIN, WEIGHT_MAX = 25, 140
HEIGHT_MIN, HEIGHT_MAX = 50, 250
PASSWORD_MIN = 6
PASSWORD_MAX = 128
NAME_MAX = 50
UUID_MAX = 36
GENDERS = {0: "Male", 1: "Female"}
# Letters, digits, underscore, hyphen, dot, space and Latin-range accented letters (spec 2 section 5).
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_\-. \u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]+$")

# Not an argon2 hash: no password ever matches it.
UNUSABLE_PASSWORD_HASH = "!deleted"
_hasher = PasswordHasher()
# Checked against when the e-mail is unknown, so the answer takes as long as for a real account.
_UNKNOWN_ACCOUNT_HASH = _hasher.hash("unknown-account")


class EmailNotVerified(FormErrors):
    """Right password, but the adult has not verified their e-mail address yet."""


@dataclass(frozen=True)
class LoginResult:
    """One of three answers (spec 1 section 4): a session, a forced reset ('key'), or parental consent."""

    kind: str
    account: Account
    token: str = ""
    expires_at: datetime | None = None
    user_age: int = 0


@dataclass
class RegistrationForm:
    firstname: str = ""
    lastname: str = ""
    email: str = ""
    password: str = ""
    dob: str = ""
    country: str = field(default_factory=lambda: str(default_country_id()))
    gender: str = str(DEFAULT_GENDER)
    weight: str = ""
    height: str = ""
    consent: bool = False
    marketing_consent: bool = False
    token: str = ""


@dataclass(frozen=True)
class Registration:
    account: Account
    requires_parental_consent: bool
    user_age: int
    verification_key: str


@dataclass
class Checked:
    """Values that passed the registration rules."""

    errors: dict[str, str] = field(default_factory=dict)
    values: dict = field(default_factory=dict)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(account: Account | None, password: str) -> bool:
    """False for an unknown account too, after the same hashing work."""
    stored = account.password_hash if account else _UNKNOWN_ACCOUNT_HASH
    try:
        matched = _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False
    return matched and account is not None


def age_on(dob: date, today: date) -> int:
    return today.year - dob.year - ((today.month, today.day) < (dob.month, dob.day))


def latest_dob(today: date) -> date:
    """The date-of-birth picker's maximum: 1 January of the year six years ago."""
    return date(today.year - MIN_AGE, 1, 1)


def _check_name(checked: Checked, key: str, label: str, value: str) -> None:
    value = unicodedata.normalize("NFC", (value or "").strip())
    if not value:
        checked.errors[key] = msg.required(label)
    elif len(value) > NAME_MAX:
        checked.errors[key] = msg.too_long(label, NAME_MAX)
    elif not NAME_PATTERN.match(value):
        checked.errors[key] = msg.NON_LATIN
    else:
        checked.values[key] = value


def _check_number(checked: Checked, key: str, label: str, raw: str) -> float | None:
    raw = str(raw or "").strip()
    if not raw:
        checked.errors[key] = msg.required(label)
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if value != value or abs(value) == float("inf"):
        checked.errors[key] = msg.not_a_number(label)
        return None
    return value


def check_names(checked: Checked, firstname: str, lastname: str) -> None:
    """First and last name rules, shared by sign-up and the profile edit."""
    _check_name(checked, "firstname", "First Name", firstname)
    _check_name(checked, "lastname", "Last Name", lastname)


def check_password(checked: Checked, password: str, key: str = "password") -> None:
    """A new password's rules, shared by sign-up and the password change."""
    if not password:
        checked.errors[key] = msg.required("Password")
    elif len(password) < PASSWORD_MIN:
        checked.errors[key] = msg.PASSWORD_TOO_SHORT
    elif len(password) > PASSWORD_MAX:
        checked.errors[key] = msg.too_long("Password", PASSWORD_MAX)
    else:
        checked.values[key] = password


def check_dob(checked: Checked, raw: str, today: date) -> None:
    if not (raw or "").strip():
        checked.errors["dob"] = msg.required("Date of Birth")
        return
    try:
        dob = date.fromisoformat(raw.strip())
    except ValueError:
        checked.errors["dob"] = msg.DOB_INVALID
        return
    if dob > latest_dob(today) or age_on(dob, today) < MIN_AGE:
        checked.errors["dob"] = msg.TOO_YOUNG
    elif dob.year < 1900:
        checked.errors["dob"] = msg.DOB_INVALID
    else:
        checked.values["dob"] = dob


def check_body(checked: Checked, country: str, gender: str, weight: str, height: str) -> None:
    """Country, gender, weight and height rules, shared by sign-up and the profile edit."""
    try:
        country_id = int(str(country).strip())
    except ValueError:
        country_id = -1
    if is_country(country_id):
        checked.values["country"] = country_id
    else:
        checked.errors["country"] = msg.COUNTRY_INVALID

    try:
        gender_id = int(str(gender).strip())
    except ValueError:
        gender_id = -1
    if gender_id in GENDERS:
        checked.values["gender"] = gender_id
    else:
        checked.errors["gender"] = msg.GENDER_INVALID

    weight_value = _check_number(checked, "weight", "Weight", weight)
    if weight_value is not None:
        if weight_value < WEIGHT_MIN:
            checked.errors["weight"] = msg.WEIGHT_TOO_LOW
        elif weight_value > WEIGHT_MAX:
            checked.errors["weight"] = msg.WEIGHT_TOO_HIGH
        else:
            checked.values["weight"] = round(weight_value, 1)

    height_value = _check_number(checked, "height", "Height", height)
    if height_value is not None:
        if not HEIGHT_MIN <= height_value <= HEIGHT_MAX:
            checked.errors["height"] = msg.HEIGHT_RANGE
        else:
            checked.values["height"] = round(height_value)


def check_registration(form: RegistrationForm, today: date) -> Checked:
    checked = Checked()
    check_names(checked, form.firstname, form.lastname)

    if not (form.email or "").strip():
        checked.errors["email"] = msg.required("Email")
    elif (email := normalize_email(form.email)) is None:
        checked.errors["email"] = msg.EMAIL_INVALID
    else:
        checked.values["email"] = email

    check_password(checked, form.password)

    check_dob(checked, form.dob, today)
    check_body(checked, form.country, form.gender, form.weight, form.height)

    if not form.consent:
        checked.errors["consent"] = msg.TERMS_REQUIRED
    if not form.token:
        checked.errors["token"] = msg.HUMAN_CHECK_REQUIRED
    return checked


def register(session: Session, form: RegistrationForm, today: date | None = None) -> Registration:
    """Creates the account and queues its verification e-mail; riders under 18 become kid accounts."""
    today = today or datetime.now(UTC).date()
    checked = check_registration(form, today)
    if checked.errors:
        raise FormErrors(checked.errors)
    values = checked.values
    # The human check comes first, so the form cannot be used to probe which e-mails are taken.
    if not human_check.verify(session, form.token):
        raise FormErrors({"token": msg.HUMAN_CHECK_REQUIRED})
    if session.exec(select(Account.id).where(Account.email == values["email"])).first():
        raise FormErrors({"email": msg.EMAIL_TAKEN})

    user_age = age_on(values["dob"], today)
    account = Account(
        email=values["email"],
        password_hash=hash_password(values["password"]),
        firstname=values["firstname"],
        lastname=values["lastname"],
        dob=values["dob"],
        country=values["country"],
        gender=values["gender"],
        weight=values["weight"],
        height=values["height"],
        is_kid=user_age < ADULT_AGE,
        marketing_consent=bool(form.marketing_consent),
    )
    session.add(account)
    session.flush()
    key = verification.send_verification(session, account)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise FormErrors({"email": msg.EMAIL_TAKEN}) from None
    return Registration(account, account.is_kid, user_age, key)


def login(
    session: Session,
    email: str,
    password: str,
    remember: bool,
    human_check_payload: str | None,
    address: str,
    today: date | None = None,
) -> LoginResult:
    errors: dict[str, str] = {}
    normalized = normalize_email(email)
    if normalized is None:
        errors["email"] = msg.EMAIL_INVALID
    if len(password or "") < PASSWORD_MIN:
        errors["password"] = msg.PASSWORD_TOO_SHORT
    elif len(password) > PASSWORD_MAX:
        errors["password"] = msg.too_long("Password", PASSWORD_MAX)
    if not human_check_payload:
        errors["token"] = msg.HUMAN_CHECK_REQUIRED
    if errors:
        raise FormErrors(errors)
    if rate_limit.login_blocked(normalized, address):
        raise TooManyAttempts({"form": msg.LOGIN_RATE_LIMITED})
    # Only attempts past the human check count: anyone can send a bad one, and counting it would let
    # them lock any rider out.
    if not human_check.verify(session, human_check_payload):
        raise FormErrors({"token": msg.HUMAN_CHECK_REQUIRED})

    if not rate_limit.take_login_attempt(normalized, address):
        raise TooManyAttempts({"form": msg.LOGIN_RATE_LIMITED})
    account = session.exec(select(Account).where(Account.email == normalized)).first()
    if not password_matches(account, password) or account.deleted_at is not None:
        raise FormErrors({"form": msg.LOGIN_FAILED})
    rate_limit.give_back_login_attempt(normalized, address)
    if not account.is_kid and not account.email_verified:
        raise EmailNotVerified({"form": msg.EMAIL_NOT_VERIFIED})
    if account.must_reset_password:
        return LoginResult("key", account)
    today = today or datetime.now(UTC).date()
    if account.is_kid and not account.parent_approved:
        return LoginResult("consent", account, user_age=age_on(account.dob, today))
    issued = tokens.issue_session_token(account, remember)
    return LoginResult("token", account, issued.token, issued.expires_at)


def rider_exists(rider_uuid: str) -> bool:
    """Whether a rider (not deleted) has this uuid: the embedded activity service asks before it keeps a
    ride, in a database session of its own."""
    if not rider_uuid or len(rider_uuid) > UUID_MAX or has_nul(rider_uuid):
        return False
    query = select(Account.id).where(Account.uuid == rider_uuid, col(Account.deleted_at).is_(None))
    with get_session() as session:
        return session.exec(query).first() is not None


def logout(session: Session, token: str) -> bool:
    return tokens.revoke_session(session, token)


def profile(account: Account, team: str | None = None) -> dict:
    """The User entity of spec 2 section 3, as the API answers it; `team` is the team shown with the rider
    (services.teams.header_team)."""
    return {
        "id": account.id,
        "uuId": account.uuid,
        "email": account.email,
        "firstname": account.firstname,
        "lastname": account.lastname,
        "isKid": account.is_kid,
        "isNormalUser": account.is_normal_user,
        "parentEmail": account.parent_email,
        "networks": [],
        "files": [],
        "country": account.country,
        "gender": account.gender,
        "weight": account.weight,
        "height": account.height,
        "dob": account.dob.isoformat(),
        "IsAllowedToSendMarketingEmails": account.marketing_consent,
        "avatar": account.avatar,
        "jersey": account.jersey,
        "team": team,
        "role": account.role,
        "src_verification_status": account.verification_status,
    }


def set_password(account: Account, password: str) -> None:
    """A new password ends every earlier session and any forced reset."""
    account.password_hash = hash_password(password)
    account.password_changed_at = datetime.now(UTC)
    account.must_reset_password = False
    tokens.forget_checks(account_uuid=account.uuid)


def erase_personal_data(session: Session, account: Account) -> str | None:
    """Deleted accounts keep their row (for ledgers and results) but nothing that names the person:
    the kept e-mails, connections and code recipients go too. Answers the avatar file that was theirs,
    for the caller to remove once this is committed."""
    now = datetime.now(UTC)
    avatar = account.avatar
    for message in session.exec(select(OutboxMessage).where(OutboxMessage.recipient == account.email)):
        session.delete(message)
    session.exec(delete(Connection).where(Connection.account_id == account.id))
    session.exec(delete(OAuthState).where(OAuthState.account_id == account.id))
    teams.remove_rider(session, account)
    # Unused codes die with the account (codes.check refuses deleted accounts); only their address goes.
    for row in session.exec(select(AccountCode).where(AccountCode.account_id == account.id)):
        row.sent_to = None
        session.add(row)
    account.email = f"deleted-{account.uuid}@deleted.invalid"
    account.firstname = "Deleted"
    account.lastname = "Rider"
    account.dob = date(1900, 1, 1)
    account.country = default_country_id()
    account.gender = DEFAULT_GENDER
    account.weight = Account.model_fields["weight"].default
    account.height = Account.model_fields["height"].default
    account.parent_email = None
    account.avatar = None
    account.marketing_consent = False
    account.password_hash = UNUSABLE_PASSWORD_HASH
    account.deleted_at = now
    session.add(account)
    tokens.forget_checks(account_uuid=account.uuid)
    return avatar
