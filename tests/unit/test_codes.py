"""Single-use, expiring codes: e-mailed links by value, typed six-digit codes by key."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, AccountCode, CodePurpose
from cycling_site.services import codes
from cycling_site.services.accounts import erase_personal_data
from tests.unit.conftest import code_error, race

HOUR = timedelta(hours=1)
# The fifth wrong typed code burns it.
FAILURES_TO_BURN = 5


@pytest.fixture
def rider(make_account) -> Account:
    return make_account()


def stored(session: Session, issued: codes.IssuedCode | None = None, key: str | None = None) -> AccountCode:
    """The code's row, read fresh from the database."""
    session.expire_all()
    if key is not None or (issued is not None and issued.key):
        return session.exec(select(AccountCode).where(AccountCode.key == (key or issued.key))).one()
    return session.exec(
        select(AccountCode).where(AccountCode.code_hash == codes.hash_code(issued.code))
    ).one()


def issue(session: Session, account: Account, purpose: str = CodePurpose.reset_password, **kwargs):
    issued = codes.issue(session, account, purpose, HOUR, **kwargs)
    session.commit()
    return issued


def expire(session: Session, row: AccountCode) -> None:
    row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
    session.add(row)
    session.commit()


# --- Link codes ------------------------------------------------------------------------------------------


def test_issued_link_code_is_long_random_and_stored_only_as_a_hash(session, rider):
    issued = issue(session, rider, sent_to=rider.email)
    other = issue(session, rider, CodePurpose.delete_account)

    assert issued.key is None
    assert len(issued.code) >= 40 and issued.code != other.code
    row = stored(session, issued)
    assert issued.code not in row.code_hash
    assert (row.account_id, row.purpose, row.sent_to) == (rider.id, CodePurpose.reset_password, rider.email)
    assert row.used_at is None and row.failed_attempts == 0
    assert timedelta(minutes=59) < issued.expires_at - datetime.now(UTC) <= HOUR


def test_check_answers_the_account_without_using_the_code(session, rider):
    issued = issue(session, rider)
    row, account = codes.check(session, CodePurpose.reset_password, issued.code)
    assert account.uuid == rider.uuid
    assert row.used_at is None
    # Checking twice still works: only use() spends the code.
    assert codes.check(session, CodePurpose.reset_password, issued.code)[1].uuid == rider.uuid


def test_use_spends_the_code_once(session, rider):
    issued = issue(session, rider)
    assert codes.use(session, CodePurpose.reset_password, issued.code).uuid == rider.uuid
    session.commit()

    assert stored(session, issued).used_at is not None
    assert code_error(codes.use, session, CodePurpose.reset_password, issued.code) == msg.CODE_USED
    assert code_error(codes.check, session, CodePurpose.reset_password, issued.code) == msg.CODE_USED


def test_use_is_kept_only_if_the_caller_commits(session, rider):
    issued = issue(session, rider)
    codes.use(session, CodePurpose.reset_password, issued.code)
    session.rollback()
    assert codes.check(session, CodePurpose.reset_password, issued.code)[1].uuid == rider.uuid


def test_expired_code_is_refused(session, rider):
    issued = issue(session, rider)
    expire(session, stored(session, issued))
    assert code_error(codes.check, session, CodePurpose.reset_password, issued.code) == msg.CODE_EXPIRED
    assert code_error(codes.use, session, CodePurpose.reset_password, issued.code) == msg.CODE_EXPIRED
    assert stored(session, issued).used_at is None


def test_used_code_says_used_even_once_expired(session, rider):
    issued = issue(session, rider)
    codes.use(session, CodePurpose.reset_password, issued.code)
    session.commit()
    expire(session, stored(session, issued))
    assert code_error(codes.check, session, CodePurpose.reset_password, issued.code) == msg.CODE_USED


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("", id="empty"),
        pytest.param("not-a-code", id="garbage"),
        pytest.param("x" * 201, id="oversized"),
        pytest.param("x" * 100_000, id="100kb"),
        pytest.param("' OR 1=1 --", id="sql"),
        pytest.param("\u00e9\u2603\U0001f6b4", id="unicode"),
    ],
)
def test_unknown_codes_are_invalid(session, rider, code):
    issue(session, rider)
    assert code_error(codes.check, session, CodePurpose.reset_password, code) == msg.CODE_INVALID
    assert code_error(codes.use, session, CodePurpose.reset_password, code) == msg.CODE_INVALID


def test_code_of_another_purpose_is_invalid(session, rider):
    issued = issue(session, rider, CodePurpose.verify_email)
    assert code_error(codes.use, session, CodePurpose.reset_password, issued.code) == msg.CODE_INVALID
    assert code_error(codes.use, session, CodePurpose.delete_account, issued.code) == msg.CODE_INVALID
    # Still good for its own purpose.
    assert codes.use(session, CodePurpose.verify_email, issued.code).uuid == rider.uuid


def test_a_newer_code_retires_the_older_one_of_the_same_purpose_only(session, rider, make_account):
    other_rider = make_account(email="other@example.com")
    older = issue(session, rider)
    other_purpose = issue(session, rider, CodePurpose.delete_account)
    other_account = issue(session, other_rider)
    newer = issue(session, rider)

    assert code_error(codes.check, session, CodePurpose.reset_password, older.code) == msg.CODE_USED
    assert codes.check(session, CodePurpose.reset_password, newer.code)[1].uuid == rider.uuid
    assert codes.check(session, CodePurpose.delete_account, other_purpose.code)[1].uuid == rider.uuid
    assert codes.check(session, CodePurpose.reset_password, other_account.code)[1].uuid == other_rider.uuid


def test_code_of_a_deleted_account_is_invalid(session, rider):
    issued = issue(session, rider)
    typed = issue(session, rider, CodePurpose.verify_otp, typed=True)
    erase_personal_data(session, rider)
    session.add(rider)
    session.commit()
    assert code_error(codes.use, session, CodePurpose.reset_password, issued.code) == msg.CODE_INVALID
    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, typed.code, key=typed.key) == msg.CODE_INVALID
    )


# --- Typed codes -----------------------------------------------------------------------------------------


def wrong(otp: str) -> str:
    """Another six-digit code."""
    return f"{(int(otp) + 1) % 10**6:06d}"


def test_typed_code_is_six_digits_with_a_key(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    assert len(issued.code) == 6 and issued.code.isdigit()
    assert issued.key and len(issued.key) <= 64
    row = stored(session, issued)
    assert row.code_hash != codes.hash_code(issued.code)
    assert codes.use(session, CodePurpose.verify_otp, issued.code, key=issued.key).uuid == rider.uuid


def test_typed_code_needs_its_key(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    # Without the key the six digits name nothing.
    assert code_error(codes.check, session, CodePurpose.verify_otp, issued.code) == msg.CODE_INVALID
    for key in ("", "unknown-key", "k" * 65):
        assert (
            code_error(codes.check, session, CodePurpose.verify_otp, issued.code, key=key) == msg.CODE_INVALID
        )
    assert stored(session, issued).failed_attempts == 0


def test_wrong_typed_codes_count_and_the_fifth_burns_the_code(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    for attempt in range(1, FAILURES_TO_BURN):
        assert (
            code_error(codes.use, session, CodePurpose.verify_otp, wrong(issued.code), key=issued.key)
            == msg.CODE_INVALID
        )
        row = stored(session, issued)
        assert (row.failed_attempts, row.used_at) == (attempt, None)

    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, wrong(issued.code), key=issued.key)
        == msg.CODE_INVALID
    )
    row = stored(session, issued)
    assert row.failed_attempts == FAILURES_TO_BURN
    assert row.used_at is not None
    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, issued.code, key=issued.key) == msg.CODE_USED
    )


def test_right_typed_code_after_four_failures_still_works(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    for _ in range(FAILURES_TO_BURN - 1):
        with pytest.raises(codes.CodeError):
            codes.check(session, CodePurpose.verify_otp, wrong(issued.code), key=issued.key)
    assert codes.use(session, CodePurpose.verify_otp, issued.code, key=issued.key).uuid == rider.uuid


def test_another_accounts_key_does_not_unlock_this_code(session, rider, make_account, monkeypatch):
    other = make_account(email="other@example.com")
    # Two different six-digit draws, so the code cannot match the other key's by chance.
    draws = iter((123456, 654321))
    monkeypatch.setattr(codes.secrets, "randbelow", lambda _bound: next(draws))
    mine = issue(session, rider, CodePurpose.verify_otp, typed=True)
    theirs = issue(session, other, CodePurpose.verify_otp, typed=True)
    assert (mine.code, theirs.code) == ("123456", "654321")
    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, mine.code, key=theirs.key) == msg.CODE_INVALID
    )
    assert stored(session, key=theirs.key).failed_attempts == 1
    assert stored(session, mine).used_at is None


def test_typed_code_of_another_purpose_is_invalid_and_not_counted(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    assert (
        code_error(codes.use, session, CodePurpose.reset_password, issued.code, key=issued.key)
        == msg.CODE_INVALID
    )
    assert stored(session, issued).failed_attempts == 0


def test_expired_typed_code_is_refused(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    expire(session, stored(session, issued))
    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, issued.code, key=issued.key)
        == msg.CODE_EXPIRED
    )


def test_wrong_digits_for_a_used_code_do_not_count(session, rider):
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)
    codes.use(session, CodePurpose.verify_otp, issued.code, key=issued.key)
    session.commit()
    assert (
        code_error(codes.use, session, CodePurpose.verify_otp, wrong(issued.code), key=issued.key)
        == msg.CODE_USED
    )
    assert stored(session, issued).failed_attempts == 0


GUESSERS = 40


def _guess(purpose: str, key: str, code: str):
    """One guess in its own session, as a request would make it; answers the message it got (None when
    the code was accepted)."""

    def guess(own: Session, _number: int) -> str | None:
        try:
            codes.check(own, purpose, code, key=key)
        except codes.CodeError as exc:
            return str(exc)
        finally:
            own.rollback()
        return None

    return guess


def test_parallel_wrong_guesses_are_judged_five_times_at_most(session, rider):
    """Many guesses at once: only the counted ones are judged (answered "invalid"), the rest find the code
    used up, and the right code is refused afterwards."""
    issued = issue(session, rider, CodePurpose.verify_phone, typed=True)
    answers = race(_guess(CodePurpose.verify_phone, issued.key, wrong(issued.code)), GUESSERS)
    assert answers.count(msg.CODE_INVALID) == FAILURES_TO_BURN
    assert answers.count(msg.CODE_USED) == GUESSERS - FAILURES_TO_BURN
    row = stored(session, issued)
    assert row.failed_attempts == FAILURES_TO_BURN and row.used_at is not None
    assert (
        code_error(codes.check, session, CodePurpose.verify_phone, issued.code, key=issued.key)
        == msg.CODE_USED
    )


def test_parallel_right_checks_count_nothing_and_leave_the_code_usable(session, rider):
    """A rider's right code, checked by several requests at once (check then use, as the wallet's two codes
    are), is not eaten by its own checks."""
    issued = issue(session, rider, CodePurpose.wallet_phone, typed=True)
    answers = race(_guess(CodePurpose.wallet_phone, issued.key, issued.code), 10)
    assert answers == [None] * 10
    assert stored(session, issued).failed_attempts == 0
    assert codes.use(session, CodePurpose.wallet_phone, issued.code, key=issued.key).uuid == rider.uuid


def test_parallel_uses_of_the_right_code_let_one_through(session, rider):
    """A checked code stays locked until the caller's transaction ends, so of two requests that check and
    use the same code at once, the second finds it used."""
    issued = issue(session, rider, CodePurpose.verify_otp, typed=True)

    def use(own: Session, _number: int) -> str | None:
        try:
            codes.use(own, CodePurpose.verify_otp, issued.code, key=issued.key)
        except codes.CodeError as exc:
            return str(exc)
        own.commit()
        return None

    answers = race(use, 10)
    assert answers.count(None) == 1
    assert answers.count(msg.CODE_USED) == 9
    assert stored(session, issued).failed_attempts == 0


# --- Owner -----------------------------------------------------------------------------------------------


def test_owner_finds_the_account_of_expired_and_used_codes(session, rider):
    link = issue(session, rider, CodePurpose.verify_email)
    typed = issue(session, rider, CodePurpose.verify_otp, typed=True)
    expire(session, stored(session, link))
    codes.use(session, CodePurpose.verify_otp, typed.code, key=typed.key)
    session.commit()

    assert codes.owner(session, CodePurpose.verify_email, code=link.code).uuid == rider.uuid
    assert codes.owner(session, CodePurpose.verify_otp, key=typed.key).uuid == rider.uuid


@pytest.mark.parametrize(
    ("purpose", "by"),
    [
        pytest.param(CodePurpose.reset_password, "code", id="link-wrong-purpose"),
        pytest.param(CodePurpose.reset_password, "key", id="key-wrong-purpose"),
        pytest.param(CodePurpose.verify_email, "nothing", id="nothing-given"),
        pytest.param(CodePurpose.verify_email, "garbage", id="garbage"),
    ],
)
def test_owner_answers_none_for_unknown_codes(session, rider, purpose, by):
    link = issue(session, rider, CodePurpose.verify_email)
    typed = issue(session, rider, CodePurpose.verify_otp, typed=True)
    kwargs = {"code": {"code": link.code}, "key": {"key": typed.key}, "nothing": {}}
    kwargs["garbage"] = {"code": "garbage", "key": ""}
    assert codes.owner(session, purpose, **kwargs[by]) is None
