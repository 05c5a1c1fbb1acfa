"""Session tokens: signed, expiring, revocable (spec 1 section 5)."""

from datetime import UTC, datetime, timedelta

import jwt
import pytest

from cycling_site.services import tokens
from cycling_site.services.accounts import set_password
from cycling_site.settings import settings


@pytest.fixture
def account(make_account):
    return make_account()


def _replace_signature(token: str, signature: str) -> str:
    header, payload, _ = token.split(".")
    return f"{header}.{payload}.{signature}"


def test_issued_token_is_ok_for_its_account(session, account):
    issued = tokens.issue_session_token(account, remember=True)
    check = tokens.check_session(session, issued.token, account.uuid)
    assert check.status == "ok"
    assert check.account.uuid == account.uuid


def test_no_token_is_missing(session):
    check = tokens.check_session(session, "")
    assert check.status == "missing"
    assert check.account is None


def test_expired_token_is_invalid(session, account):
    issued = tokens.issue_session_token(account, remember=False, now=datetime.now(UTC) - timedelta(days=1))
    assert issued.expires_at < datetime.now(UTC)
    check = tokens.check_session(session, issued.token)
    assert check.status == "invalid"
    assert check.account is None


def test_tampered_signature_is_invalid(session, account):
    token = tokens.issue_session_token(account, remember=True).token
    signature = token.split(".")[2]
    # Change a leading character: the last one may only carry padding bits.
    flipped = ("B" if signature[0] == "A" else "A") + signature[1:]
    assert tokens.check_session(session, _replace_signature(token, flipped)).status == "invalid"


def test_token_signed_with_another_secret_is_invalid(session, account):
    claims = {
        "sub": account.uuid,
        "purpose": "session",
        "jti": "j1",
        "exp": datetime.now(UTC) + timedelta(hours=1),
    }
    forged = jwt.encode(claims, "another-secret-of-sufficient-length-0123456789", algorithm="HS256")
    assert tokens.check_session(session, forged).status == "invalid"


def test_tampered_subject_is_invalid(session, account, make_account):
    other = make_account(email="other@example.com")
    token = tokens.issue_session_token(account, remember=True).token
    other_token = tokens.issue_session_token(other, remember=True).token
    # The other account's claims under this token's signature.
    spliced = ".".join([*other_token.split(".")[:2], token.split(".")[2]])
    assert tokens.check_session(session, spliced).status == "invalid"


def test_token_of_another_user_id_is_invalid(session, account, make_account):
    other = make_account(email="other@example.com")
    token = tokens.issue_session_token(account, remember=True).token
    assert tokens.check_session(session, token, other.uuid).status == "invalid"
    assert tokens.check_session(session, token, account.uuid).status == "ok"


def test_revoked_token_is_invalid(session, account):
    first = tokens.issue_session_token(account, remember=True).token
    second = tokens.issue_session_token(account, remember=True).token
    assert tokens.revoke_session(session, first) is True
    assert tokens.check_session(session, first).status == "invalid"
    # Only that session ends.
    assert tokens.check_session(session, second).status == "ok"


def test_revoking_garbage_answers_false(session):
    assert tokens.revoke_session(session, "not-a-token") is False
    assert tokens.revoke_session(session, "") is False


def test_token_of_a_deleted_account_is_invalid(session, account):
    token = tokens.issue_session_token(account, remember=True).token
    account.deleted_at = datetime.now(UTC)
    session.add(account)
    session.commit()
    assert tokens.check_session(session, token).status == "invalid"


def _session_claims(account, **changes) -> dict:
    claims = {"sub": account.uuid, "purpose": tokens.SESSION_PURPOSE, "jti": "hand-made"}
    claims.update(changes)
    return claims


def test_token_without_exp_is_invalid(session, account):
    without_exp = jwt.encode(_session_claims(account), settings.secret_key, algorithm="HS256")
    assert tokens.check_session(session, without_exp).status == "invalid"
    # The same claims with an exp are accepted: exp is what is missing.
    exp = int((datetime.now(UTC) + timedelta(hours=1)).timestamp())
    with_exp = jwt.encode(_session_claims(account, exp=exp), settings.secret_key, algorithm="HS256")
    assert tokens.check_session(session, with_exp).status == "ok"


def test_token_with_another_purpose_is_not_a_session(session, account):
    exp = int((datetime.now(UTC) + timedelta(hours=1)).timestamp())
    claims = _session_claims(account, purpose="verify-email", exp=exp)
    other = jwt.encode(claims, settings.secret_key, algorithm="HS256")
    assert tokens.check_session(session, other).status == "invalid"


def test_a_new_password_ends_earlier_sessions(session, account):
    earlier = tokens.issue_session_token(account, remember=True, now=datetime.now(UTC) - timedelta(minutes=5))
    set_password(account, "a-new-password")
    session.add(account)
    session.commit()
    assert tokens.check_session(session, earlier.token).status == "invalid"
    later = tokens.issue_session_token(account, remember=True)
    assert tokens.check_session(session, later.token).status == "ok"


def test_session_lifetimes():
    assert tokens.session_lifetime(True) == timedelta(days=settings.session_remember_days)
    assert tokens.session_lifetime(False) == timedelta(hours=settings.session_short_hours)


@pytest.mark.parametrize("remember", [True, False])
def test_token_expires_after_its_lifetime(account, remember):
    now = datetime(2030, 1, 1, tzinfo=UTC)
    issued = tokens.issue_session_token(account, remember=remember, now=now)
    assert issued.expires_at == now + tokens.session_lifetime(remember)
    claims = jwt.decode(
        issued.token,
        settings.secret_key,
        algorithms=["HS256"],
        options={"verify_exp": False, "verify_iat": False},
    )
    assert claims["exp"] == int(issued.expires_at.timestamp())
