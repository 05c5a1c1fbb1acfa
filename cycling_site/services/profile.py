"""The rider's own account: profile edit, avatar, password change and account deletion."""

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, CodePurpose, Role
from cycling_site.services import codes, outbox, rate_limit, tokens
from cycling_site.services.accounts import (
    ADULT_AGE,
    PASSWORD_MAX,
    Checked,
    FormErrors,
    TooManyAttempts,
    age_on,
    check_body,
    check_dob,
    check_names,
    check_password,
    erase_personal_data,
    password_matches,
    set_password,
)
from cycling_site.services.validation import normalize_email
from cycling_site.settings import settings

AVATAR_MAX_BYTES = 5 * 1024 * 1024
AVATAR_SIDE = 256
AVATAR_MAX_PIXELS = 40_000_000
# Formats Pillow decodes itself; others (EPS and the like) would hand the bytes to outside programs.
AVATAR_FORMATS = ("JPEG", "PNG", "WEBP", "GIF")
AVATAR_FOLDER = "avatars"
AVATAR_NAME = re.compile(r"^[0-9a-f]{32}\.webp$")
# Spec 2 section 9: removal is offered when the avatar path is longer than 25 characters.
AVATAR_REMOVABLE_AFTER = 25
AVATAR_VIEWERS = {Role.race_control, Role.admin}
DELETE_LINK_LIFETIME = timedelta(hours=48)
# Not an argon2 hash, so no password ever matches it.


@dataclass
class ProfileForm:
    """The PUT /auth/profile fields; dob is None when omitted (kid accounts never send it)."""

    firstname: str = ""
    lastname: str = ""
    country: str = ""
    gender: str = ""
    weight: str = ""
    height: str = ""
    marketing_consent: bool = False
    dob: str | None = None


def update_profile(
    session: Session, account: Account, form: ProfileForm, today: date | None = None
) -> Account:
    """Applies the sign-up rules to the editable fields; a kid's date of birth stays as it is."""
    today = today or datetime.now(UTC).date()
    checked = Checked()
    check_names(checked, form.firstname, form.lastname)
    if account.is_kid:
        sent = (form.dob or "").strip()
        if sent and sent != account.dob.isoformat():
            checked.errors["dob"] = msg.KID_DOB_LOCKED
    else:
        check_dob(checked, form.dob or "", today)
        # The kid rules hang on the account, not the date: an adult cannot turn into an unchecked kid.
        if "dob" in checked.values and age_on(checked.values["dob"], today) < ADULT_AGE:
            del checked.values["dob"]
            checked.errors["dob"] = msg.ADULT_DOB_ONLY
    check_body(checked, form.country, form.gender, form.weight, form.height)
    if checked.errors:
        raise FormErrors(checked.errors)
    for name, value in checked.values.items():
        setattr(account, name, value)
    account.marketing_consent = bool(form.marketing_consent)
    session.add(account)
    session.commit()
    return account


def latest_adult_dob(today: date) -> date:
    """The date-of-birth picker's maximum on an adult account: 18 years ago today."""
    try:
        return today.replace(year=today.year - ADULT_AGE)
    except ValueError:
        return today.replace(year=today.year - ADULT_AGE, day=28)


# --- Avatar ----------------------------------------------------------------------------------------------


def avatar_removable(stored: str | None) -> bool:
    return len(stored or "") > AVATAR_REMOVABLE_AFTER


def avatar_url(stored: str | None) -> str:
    """Where the site serves a stored avatar ('' for none)."""
    name = (stored or "").removeprefix(f"{AVATAR_FOLDER}/")
    return f"/api/auth/avatar/{name}" if AVATAR_NAME.match(name) else ""


def _square_webp(data: bytes) -> bytes:
    """The image cropped to a 256 px square and re-encoded, which also drops its metadata."""
    try:
        with Image.open(BytesIO(data), formats=AVATAR_FORMATS) as image:
            if image.width * image.height > AVATAR_MAX_PIXELS:
                raise FormErrors({"avatar": msg.AVATAR_TOO_MANY_PIXELS})
            # A JPEG is decoded at the smallest scale still covering the square: a phone photo takes
            # tens of milliseconds instead of hundreds.
            image.draft(None, (AVATAR_SIDE, AVATAR_SIDE))
            image.load()
            upright = ImageOps.exif_transpose(image)
            converted = upright.convert("RGBA" if upright.has_transparency_data else "RGB")
    except Image.DecompressionBombError:
        raise FormErrors({"avatar": msg.AVATAR_TOO_MANY_PIXELS}) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise FormErrors({"avatar": msg.INVALID_IMAGE}) from None
    square = ImageOps.fit(converted, (AVATAR_SIDE, AVATAR_SIDE), Image.Resampling.LANCZOS)
    out = BytesIO()
    square.save(out, "WEBP", quality=85)
    return out.getvalue()


def _avatar_path(stored: str | None) -> Path | None:
    name = (stored or "").removeprefix(f"{AVATAR_FOLDER}/")
    return settings.data_dir / AVATAR_FOLDER / name if AVATAR_NAME.match(name) else None


def _remove_avatar_file(stored: str | None) -> None:
    if path := _avatar_path(stored):
        path.unlink(missing_ok=True)


def store_avatar(session: Session, account: Account, data: bytes) -> Account:
    """Checks the upload by its content, stores it under a random name and drops the previous file."""
    if not data:
        raise FormErrors({"avatar": msg.AVATAR_MISSING})
    if len(data) > AVATAR_MAX_BYTES:
        raise FormErrors({"avatar": msg.AVATAR_TOO_LARGE})
    encoded = _square_webp(data)
    folder = settings.data_dir / AVATAR_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{secrets.token_hex(16)}.webp"
    (folder / name).write_bytes(encoded)
    previous = account.avatar
    account.avatar = f"{AVATAR_FOLDER}/{name}"
    session.add(account)
    try:
        session.commit()
    except Exception:
        (folder / name).unlink(missing_ok=True)
        raise
    _remove_avatar_file(previous)
    return account


def remove_avatar(session: Session, account: Account) -> Account:
    if not avatar_removable(account.avatar):
        raise FormErrors({"avatar": msg.AVATAR_NONE})
    previous = account.avatar
    account.avatar = None
    session.add(account)
    session.commit()
    _remove_avatar_file(previous)
    return account


def avatar_file(session: Session, viewer: Account, name: str) -> Path | None:
    """The stored file, for its owner or race control; None for anyone else, as for a missing one."""
    if not AVATAR_NAME.match(name or ""):
        return None
    owner = session.exec(select(Account).where(Account.avatar == f"{AVATAR_FOLDER}/{name}")).first()
    if owner is None or (owner.id != viewer.id and viewer.role not in AVATAR_VIEWERS):
        return None
    path = settings.data_dir / AVATAR_FOLDER / name
    return path if path.is_file() else None


# --- Password --------------------------------------------------------------------------------------------


def change_password(
    session: Session,
    account: Account,
    current_password: str,
    password: str,
    repeat_password: str,
    address: str,
) -> None:
    """Sets the new password, which ends every session of the account (this one too).

    Wrong current passwords count against the sign-in limit, so a stolen session cannot guess it.
    """
    if rate_limit.login_blocked(account.email, address):
        raise TooManyAttempts({"current_password": msg.LOGIN_RATE_LIMITED})
    checked = Checked()
    if not current_password:
        checked.errors["current_password"] = msg.required("Current Password")
    elif not rate_limit.take_login_attempt(account.email, address):
        raise TooManyAttempts({"current_password": msg.LOGIN_RATE_LIMITED})
    elif len(current_password) > PASSWORD_MAX or not password_matches(account, current_password):
        checked.errors["current_password"] = msg.CURRENT_PASSWORD_WRONG
    else:
        rate_limit.give_back_login_attempt(account.email, address)
    check_password(checked, password)
    if "password" in checked.values and repeat_password != password:
        checked.errors["repeatPassword"] = msg.PASSWORD_MISMATCH
    if checked.errors:
        raise FormErrors(checked.errors)
    set_password(account, password)
    session.add(account)
    session.commit()


# --- Account deletion ------------------------------------------------------------------------------------


def deletion_recipient(account: Account) -> str:
    """Kid accounts are confirmed by the parent (spec 2 section 6)."""
    return account.parent_email if account.is_kid and account.parent_email else account.email


def request_deletion(session: Session, account: Account, token: str = "") -> str:
    """E-mails a single-use 48-hour confirmation link, ends the session and answers the recipient."""
    recipient = deletion_recipient(account)
    issued = codes.issue(
        session, account, CodePurpose.delete_account, DELETE_LINK_LIFETIME, sent_to=recipient
    )
    link = f"{settings.site_url}/delete-user/{issued.code}"
    if recipient == account.email:
        opening = f"Hi {account.firstname},\n\nYou asked to delete your {settings.site_name} account."
    else:
        opening = (
            f"Hello,\n\n{account.firstname} {account.lastname} asked to delete their "
            f"{settings.site_name} account ({account.email})."
        )
    outbox.queue_email(
        session,
        recipient,
        f"Confirm the deletion of your {settings.site_name} account",
        f"{opening} To confirm, open this link:\n\n{link}\n\nThe link is valid for 48 hours. Deleting "
        "erases the account's personal data and cannot be undone. If nobody asked for it, ignore this email.",
    )
    session.commit()
    if token:
        tokens.revoke_session(session, token)
    return recipient


def request_deletion_by_email(session: Session, email: str) -> None:
    """The app's deletion request (POST mobile/delete-account): the link goes to the account's own address
    (its parent's for a kid), and the answer is the same whether or not an account uses `email`, so the
    call cannot tell who has an account."""
    normalized = normalize_email(email)
    if normalized is None:
        raise FormErrors({"email": msg.EMAIL_REQUIRED_VALID})
    if not rate_limit.allow_email("account-deletion", normalized):
        raise TooManyAttempts({"email": msg.TOO_MANY_EMAILS})
    account = session.exec(select(Account).where(Account.email == normalized)).first()
    if account is not None and account.deleted_at is None:
        request_deletion(session, account)


def confirm_deletion(session: Session, code: str) -> Account:
    """Uses the code and erases the account's personal data; CodeError says why it cannot."""
    account = codes.use(session, CodePurpose.delete_account, code)
    avatar = erase_personal_data(session, account)
    session.commit()
    _remove_avatar_file(avatar)
    return account
