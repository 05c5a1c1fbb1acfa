"""Signed, expiring, revocable session tokens."""

import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import jwt
from sqlalchemy import bindparam, exists
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete, select

from cycling_site.models import Account, RevokedSession
from cycling_site.models.common import as_utc
from cycling_site.settings import settings

ALGORITHM = "HS256"
SESSION_PURPOSE = "session"
# The browser holds a session in two HttpOnly cookies (spec 3: a user id cookie and a token cookie).
TOKEN_COOKIE = "rider_token"
USER_ID_COOKIE = "rider_id"
# A sign-in on the site's pages is handed to the browser as a single-use handle that an HTTP response
# turns into the cookies: the live connection cannot set HttpOnly cookies itself.
SIGN_IN_PURPOSE = "sign_in"
SIGN_IN_LIFETIME = timedelta(seconds=60)
# The live connection re-checks its session on every page load and rider action; one connection reuses a
# verdict this long, so a session revoked by another worker (or a password changed there) ends within these
# seconds. A new connection (a page opened or reloaded) checks afresh, and this worker's own sign-outs,
# password changes and deletions end its sessions at once.
CHECK_REUSE_SECONDS = 5.0
MAX_REUSED_CHECKS = 20_000


@dataclass(frozen=True)
class IssuedToken:
    token: str
    expires_at: datetime


@dataclass(frozen=True)
class SignIn:
    """A redeemed sign-in handle: the new session, whether it outlives the browser, where to go next."""

    account: Account
    issued: IssuedToken
    remember: bool
    destination: str


@dataclass(frozen=True)
class SessionCheck:
    """`status` is ok, missing or invalid; only an ok check carries the account."""

    status: str
    account: Account | None = None


def _encode(claims: dict) -> str:
    return jwt.encode(claims, settings.secret_key, algorithm=ALGORITHM)


def _decode(token: str, purpose: str) -> dict | None:
    # A token without exp counts as expired (spec 1 section 5).
    try:
        claims = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[ALGORITHM],
            options={"require": ["exp", "sub", "purpose"]},
        )
    except jwt.PyJWTError:
        return None
    return claims if claims.get("purpose") == purpose else None


def sign_link(subject: str, purpose: str, lifetime: timedelta, **claims) -> str:
    """A short-lived signed link token: whoever holds it may use it until it expires."""
    expires_at = datetime.now(UTC) + lifetime
    return _encode({"sub": subject, "purpose": purpose, "exp": int(expires_at.timestamp()), **claims})


def read_link(token: str, purpose: str) -> dict | None:
    """The claims of a live link token of this purpose; None when expired, tampered or of another purpose."""
    return _decode(token, purpose) if token and len(token) < 4096 else None


def session_lifetime(remember: bool) -> timedelta:
    if remember:
        return timedelta(days=settings.session_remember_days)
    return timedelta(hours=settings.session_short_hours)


def issue_session_token(account: Account, remember: bool, now: datetime | None = None) -> IssuedToken:
    now = now or datetime.now(UTC)
    expires_at = now + session_lifetime(remember)
    claims = {
        "sub": account.uuid,
        "purpose": SESSION_PURPOSE,
        "jti": uuid.uuid4().hex,
        # Fractional, so a password changed within the same second still ends this session.
        "iat": now.timestamp(),
        "exp": int(expires_at.timestamp()),
        "rem": remember,
    }
    return IssuedToken(_encode(claims), expires_at)


def _ended_by_password_change(account: Account, claims: dict) -> bool:
    changed = account.password_changed_at
    return changed is not None and claims.get("iat", 0) < as_utc(changed).timestamp()


def sign_in_handle(account: Account, remember: bool, destination: str) -> str:
    """What the sign-in page gives the browser to post back for its session cookies."""
    now = datetime.now(UTC)
    return sign_link(
        account.uuid,
        SIGN_IN_PURPOSE,
        SIGN_IN_LIFETIME,
        jti=uuid.uuid4().hex,
        iat=now.timestamp(),
        rem=remember,
        next=destination,
    )


def redeem_sign_in(session: Session, handle: str) -> SignIn | None:
    """A new session for a live sign-in handle, once: the handle's jti is spent like a revoked token's."""
    claims = read_link(handle, SIGN_IN_PURPOSE)
    if claims is None or not isinstance(claims.get("jti"), str) or len(claims["jti"]) > 64:
        return None
    session.add(RevokedSession(jti=claims["jti"], expires_at=datetime.fromtimestamp(claims["exp"], UTC)))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return None
    account = session.exec(select(Account).where(Account.uuid == claims["sub"])).first()
    if account is None or account.deleted_at is not None or _ended_by_password_change(account, claims):
        return None
    remember = claims.get("rem") is True
    return SignIn(account, issue_session_token(account, remember), remember, str(claims.get("next", "")))


# Every rider action checks its session: built once, and one query. A revoked token finds no account, as
# a token of a deleted one does; a second query for the revocation cost as much as the whole check.
_ACCOUNT_OF_SESSION = select(Account).where(
    Account.uuid == bindparam("uuid"),
    ~exists().where(RevokedSession.jti == bindparam("jti")),
)


def check_session(session: Session, token: str, user_id: str | None = None) -> SessionCheck:
    """Checks a session token, and that it belongs to `user_id` when the user-id cookie is given."""
    if not token:
        return SessionCheck("missing")
    claims = _decode(token, SESSION_PURPOSE)
    if claims is None or (user_id is not None and claims["sub"] != user_id):
        return SessionCheck("invalid")
    params = {"uuid": claims["sub"], "jti": claims.get("jti", "")}
    account = session.exec(_ACCOUNT_OF_SESSION, params=params).first()
    if account is None or account.deleted_at is not None or _ended_by_password_change(account, claims):
        return SessionCheck("invalid")
    return SessionCheck("ok", account)


_recent_checks: dict[tuple[str, str | None, str], tuple[float, SessionCheck]] = {}


def reused_check(token: str, user_id: str | None, connection: str) -> SessionCheck | None:
    """The verdict `connection` got in the last CHECK_REUSE_SECONDS, if any (no database work). The account
    it carries is detached: read it for display, work on it in a session's own."""
    found = _recent_checks.get((token, user_id, connection))
    return found[1] if found is not None and found[0] > time.monotonic() else None


def recent_check(
    session: Session, token: str, user_id: str | None, connection: str, fresh: bool = False
) -> SessionCheck:
    """`check_session`, reusing the verdict `connection` got in the last CHECK_REUSE_SECONDS (none when
    `fresh`), and keeping the new one for the next."""
    if not fresh and (reused := reused_check(token, user_id, connection)) is not None:
        return reused
    check = check_session(session, token, user_id)
    now = time.monotonic()
    if len(_recent_checks) >= MAX_REUSED_CHECKS:
        for stale in [key for key, (until, _check) in _recent_checks.items() if until <= now]:
            del _recent_checks[stale]
        if len(_recent_checks) >= MAX_REUSED_CHECKS:
            _recent_checks.clear()
    _recent_checks[(token, user_id, connection)] = (now + CHECK_REUSE_SECONDS, check)
    return check


def forget_checks(account_uuid: str | None = None, token: str | None = None) -> None:
    """Drops reused verdicts of one account or one token, so their next check reads the database."""
    for key, (_until, check) in list(_recent_checks.items()):
        if key[0] == token or (check.account is not None and check.account.uuid == account_uuid):
            _recent_checks.pop(key, None)


def revoke_session(session: Session, token: str) -> bool:
    """Revokes a still-valid token; answers whether there was one to revoke."""
    forget_checks(token=token)
    claims = _decode(token, SESSION_PURPOSE)
    if claims is None or not claims.get("jti"):
        return False
    if session.get(RevokedSession, claims["jti"]) is None:
        expires_at = datetime.fromtimestamp(claims["exp"], UTC)
        session.add(RevokedSession(jti=claims["jti"], expires_at=expires_at))
    session.exec(delete(RevokedSession).where(RevokedSession.expires_at < datetime.now(UTC)))
    session.commit()
    return True
