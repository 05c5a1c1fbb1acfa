"""Sign-up rules and sign-in (spec 2 sections 4 and 5)."""

import dataclasses
from datetime import UTC, date, datetime

import pytest
from limits import parse
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import Account, CodePurpose, OutboxMessage
from cycling_site.services import codes, countries, tokens
from cycling_site.services.accounts import (
    NAME_MAX,
    PASSWORD_MAX,
    FormErrors,
    RegistrationForm,
    TooManyAttempts,
    check_registration,
    login,
    password_matches,
    register,
)
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, count

TODAY = date(2025, 6, 15)
ADDRESS = "203.0.113.7"


def form(**overrides) -> RegistrationForm:
    """A valid sign-up form; the token is unchecked until every other rule passes."""
    values = {
        "firstname": "Layla",
        "lastname": "Haddad",
        "email": "layla@example.com",
        "password": "ridefast",
        "dob": "1990-05-20",
        "country": "784",
        "gender": "1",
        "weight": "58.5",
        "height": "168",
        "consent": True,
        "token": "not-yet-checked",
    }
    values.update(overrides)
    return RegistrationForm(**values)


def assert_nothing_stored(session: Session) -> None:
    assert count(session, Account) == 0
    assert count(session, OutboxMessage) == 0


# --- Registration: refused input -------------------------------------------------------------------------

REFUSED = [
    pytest.param({"firstname": ""}, {"firstname": msg.required("First Name")}, id="firstname-missing"),
    pytest.param({"firstname": "   "}, {"firstname": msg.required("First Name")}, id="firstname-blank"),
    pytest.param({"lastname": ""}, {"lastname": msg.required("Last Name")}, id="lastname-missing"),
    pytest.param({"email": ""}, {"email": msg.required("Email")}, id="email-missing"),
    pytest.param({"password": ""}, {"password": msg.required("Password")}, id="password-missing"),
    pytest.param({"dob": ""}, {"dob": msg.required("Date of Birth")}, id="dob-missing"),
    pytest.param({"weight": ""}, {"weight": msg.required("Weight")}, id="weight-missing"),
    pytest.param({"height": ""}, {"height": msg.required("Height")}, id="height-missing"),
    pytest.param({"firstname": "Иван"}, {"firstname": msg.NON_LATIN}, id="cyrillic-firstname"),
    pytest.param({"lastname": "李"}, {"lastname": msg.NON_LATIN}, id="chinese-lastname"),
    pytest.param({"lastname": "O'Brien"}, {"lastname": msg.NON_LATIN}, id="apostrophe"),
    pytest.param({"firstname": "Zoë×"}, {"firstname": msg.NON_LATIN}, id="multiplication-sign"),
    pytest.param(
        {"firstname": "a" * (NAME_MAX + 1)},
        {"firstname": msg.too_long("First Name", NAME_MAX)},
        id="firstname-too-long",
    ),
    pytest.param(
        {"lastname": "b" * (NAME_MAX + 1)},
        {"lastname": msg.too_long("Last Name", NAME_MAX)},
        id="lastname-too-long",
    ),
    pytest.param({"email": "layla.example.com"}, {"email": msg.EMAIL_INVALID}, id="email-no-at"),
    pytest.param({"email": "layla@"}, {"email": msg.EMAIL_INVALID}, id="email-no-domain"),
    pytest.param({"email": "a" * 250 + "@example.com"}, {"email": msg.EMAIL_INVALID}, id="email-too-long"),
    pytest.param({"password": "12345"}, {"password": msg.PASSWORD_TOO_SHORT}, id="password-5-chars"),
    pytest.param(
        {"password": "x" * (PASSWORD_MAX + 1)},
        {"password": msg.too_long("Password", PASSWORD_MAX)},
        id="password-too-long",
    ),
    pytest.param({"dob": "2019-01-02"}, {"dob": msg.TOO_YOUNG}, id="dob-after-1-january-six-years-ago"),
    pytest.param({"dob": "2025-06-16"}, {"dob": msg.TOO_YOUNG}, id="dob-in-future"),
    pytest.param({"dob": "15/06/1990"}, {"dob": msg.DOB_INVALID}, id="dob-not-a-date"),
    pytest.param({"dob": "1899-12-31"}, {"dob": msg.DOB_INVALID}, id="dob-before-1900"),
    pytest.param({"weight": "24.9"}, {"weight": msg.WEIGHT_TOO_LOW}, id="weight-24.9"),
    pytest.param({"weight": "140.1"}, {"weight": msg.WEIGHT_TOO_HIGH}, id="weight-140.1"),
    pytest.param({"height": "49"}, {"height": msg.HEIGHT_RANGE}, id="height-49"),
    pytest.param({"height": "251"}, {"height": msg.HEIGHT_RANGE}, id="height-251"),
    pytest.param({"consent": False}, {"consent": msg.TERMS_REQUIRED}, id="consent-missing"),
    pytest.param({"token": ""}, {"token": msg.HUMAN_CHECK_REQUIRED}, id="human-check-missing"),
    pytest.param({"country": "0"}, {"country": msg.COUNTRY_INVALID}, id="country-unknown"),
    pytest.param({"country": "UAE"}, {"country": msg.COUNTRY_INVALID}, id="country-not-a-number"),
    pytest.param({"gender": "2"}, {"gender": msg.GENDER_INVALID}, id="gender-unknown"),
]


@pytest.mark.parametrize(("overrides", "errors"), REFUSED)
def test_registration_refuses_bad_input_and_stores_nothing(session, overrides, errors):
    with pytest.raises(FormErrors) as caught:
        register(session, form(**overrides), today=TODAY)
    assert caught.value.errors == errors
    assert_nothing_stored(session)


def test_an_empty_form_names_every_missing_field(session):
    with pytest.raises(FormErrors) as caught:
        register(session, RegistrationForm(), today=TODAY)
    assert caught.value.errors == {
        "firstname": msg.required("First Name"),
        "lastname": msg.required("Last Name"),
        "email": msg.required("Email"),
        "password": msg.required("Password"),
        "dob": msg.required("Date of Birth"),
        "weight": msg.required("Weight"),
        "height": msg.required("Height"),
        "consent": msg.TERMS_REQUIRED,
        "token": msg.HUMAN_CHECK_REQUIRED,
    }
    assert_nothing_stored(session)


@pytest.mark.parametrize(
    ("overrides", "key", "stored"),
    [
        pytest.param({"firstname": "Zoë"}, "firstname", "Zoë", id="zoe"),
        pytest.param({"firstname": "José"}, "firstname", "José", id="jose"),
        pytest.param({"lastname": "Łukasz-Ørsted"}, "lastname", "Łukasz-Ørsted", id="latin-extended"),
        pytest.param({"lastname": "St. Pierre_2"}, "lastname", "St. Pierre_2", id="dot-space-underscore"),
        pytest.param({"firstname": "  Layla  "}, "firstname", "Layla", id="name-trimmed"),
        pytest.param({"firstname": "a" * NAME_MAX}, "firstname", "a" * NAME_MAX, id="name-50-chars"),
        pytest.param({"dob": "2019-01-01"}, "dob", date(2019, 1, 1), id="dob-1-january-six-years-ago"),
        pytest.param({"weight": "25"}, "weight", 25, id="weight-25"),
        pytest.param({"weight": "140"}, "weight", 140, id="weight-140"),
        pytest.param({"height": "50"}, "height", 50, id="height-50"),
        pytest.param({"height": "250"}, "height", 250, id="height-250"),
        pytest.param({"email": " Layla@Example.COM "}, "email", "layla@example.com", id="email-normalized"),
        pytest.param({"password": "123456"}, "password", "123456", id="password-6-chars"),
    ],
)
def test_registration_accepts_boundary_and_latin_values(overrides, key, stored):
    checked = check_registration(form(**overrides), TODAY)
    assert checked.errors == {}
    assert checked.values[key] == stored


def test_duplicate_email_is_refused_whatever_its_case(session, make_account, human_check_payload):
    make_account(email="layla@example.com")
    with pytest.raises(FormErrors) as caught:
        register(session, form(email="Layla@Example.com", token=human_check_payload()), today=TODAY)
    assert caught.value.errors == {"email": msg.EMAIL_TAKEN}
    assert count(session, Account) == 1
    assert count(session, OutboxMessage) == 0


def test_unsolved_human_check_is_refused(session):
    with pytest.raises(FormErrors) as caught:
        register(session, form(token="bm90IGEgc29sdXRpb24="), today=TODAY)
    assert caught.value.errors == {"token": msg.HUMAN_CHECK_REQUIRED}
    assert_nothing_stored(session)


# --- Registration: stored accounts -----------------------------------------------------------------------


def stored_account(session: Session, email: str) -> Account:
    session.expire_all()
    return session.exec(select(Account).where(Account.email == email)).one()


def test_adult_registration_stores_account_and_queues_verification(session, human_check_payload):
    registration = register(
        session,
        form(firstname=" Layla ", token=human_check_payload(), marketing_consent=True),
        today=TODAY,
    )

    assert registration.requires_parental_consent is False
    assert registration.user_age == 35
    account = stored_account(session, "layla@example.com")
    assert account.uuid == registration.account.uuid
    assert account.firstname == "Layla"
    assert (account.dob, account.country, account.gender) == (date(1990, 5, 20), 784, 1)
    assert (account.weight, account.height) == (58.5, 168)
    assert account.is_kid is False
    assert account.marketing_consent is True
    assert account.email_verified is False
    assert account.password_hash != "ridefast"
    assert "ridefast" not in account.password_hash
    assert password_matches(account, "ridefast")
    assert not password_matches(account, "ridefast2")

    mails = list(session.exec(select(OutboxMessage)))
    assert len(mails) == 1
    assert mails[0].recipient == "layla@example.com"
    assert f"{settings.site_url}/verify-user?es=" in mails[0].body
    code = mails[0].body.split("/verify-user?es=", 1)[1].split()[0]
    assert codes.check(session, CodePurpose.verify_email, code)[1].uuid == account.uuid
    assert f"/auth/verification?key={registration.verification_key}" in mails[0].body


@pytest.mark.parametrize(
    ("dob", "age", "is_kid", "page"),
    [
        pytest.param("2007-06-15", 18, False, "/verify-user?es=", id="18-today"),
        pytest.param("2007-06-16", 17, True, "/verify-kid?es=", id="17"),
        pytest.param("2019-01-01", 6, True, "/verify-kid?es=", id="6"),
    ],
)
def test_riders_under_18_become_kid_accounts(session, human_check_payload, dob, age, is_kid, page):
    registration = register(session, form(dob=dob, token=human_check_payload()), today=TODAY)

    assert registration.user_age == age
    assert registration.requires_parental_consent is is_kid
    account = stored_account(session, "layla@example.com")
    assert account.is_kid is is_kid
    assert account.parent_approved is False
    (mail,) = session.exec(select(OutboxMessage)).all()
    assert page in mail.body


def test_a_human_check_counts_for_one_registration_only(session, human_check_payload):
    payload = human_check_payload()
    register(session, form(token=payload), today=TODAY)
    with pytest.raises(FormErrors) as caught:
        register(session, form(email="other@example.com", token=payload), today=TODAY)
    assert caught.value.errors == {"token": msg.HUMAN_CHECK_REQUIRED}
    assert count(session, Account) == 1
    assert count(session, OutboxMessage) == 1


# --- Login -----------------------------------------------------------------------------------------------


def test_adult_login_issues_a_working_session(session, make_account, human_check_payload):
    account = make_account()
    result = login(session, "Rider@Example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)

    assert result.kind == "token"
    assert result.account.uuid == account.uuid
    assert result.expires_at > datetime.now(UTC)
    check = tokens.check_session(session, result.token, account.uuid)
    assert check.status == "ok"
    assert check.account.email == "rider@example.com"


@pytest.mark.parametrize(
    ("email", "password"),
    [
        pytest.param("rider@example.com", "wrong-password", id="wrong-password"),
        pytest.param("nobody@example.com", DEMO_PASSWORD, id="unknown-email"),
    ],
)
def test_failed_login_gives_one_message_for_both_causes(
    session, make_account, human_check_payload, email, password
):
    make_account()
    with pytest.raises(FormErrors) as caught:
        login(session, email, password, True, human_check_payload(), ADDRESS)
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}


@pytest.mark.parametrize(
    ("email", "password", "token", "errors"),
    [
        pytest.param(
            "rider@example.com", DEMO_PASSWORD, None, {"token": msg.HUMAN_CHECK_REQUIRED}, id="none"
        ),
        pytest.param("rider@example.com", DEMO_PASSWORD, "", {"token": msg.HUMAN_CHECK_REQUIRED}, id="empty"),
        pytest.param("rider@example", DEMO_PASSWORD, "x", {"email": msg.EMAIL_INVALID}, id="bad-email"),
        pytest.param("", DEMO_PASSWORD, "x", {"email": msg.EMAIL_INVALID}, id="no-email"),
        pytest.param("rider@example.com", "12345", "x", {"password": msg.PASSWORD_TOO_SHORT}, id="short"),
        pytest.param("rider@example.com", "", "x", {"password": msg.PASSWORD_TOO_SHORT}, id="no-password"),
    ],
)
def test_login_form_rules(session, email, password, token, errors):
    with pytest.raises(FormErrors) as caught:
        login(session, email, password, True, token, ADDRESS)
    assert caught.value.errors == errors


def test_login_with_an_unsolved_human_check_is_refused(session, make_account):
    make_account()
    with pytest.raises(FormErrors) as caught:
        login(session, "rider@example.com", DEMO_PASSWORD, True, "bm90IGEgc29sdXRpb24=", ADDRESS)
    assert caught.value.errors == {"token": msg.HUMAN_CHECK_REQUIRED}


def test_forced_password_reset_answers_key_without_a_session(session, make_account, human_check_payload):
    make_account(must_reset_password=True)
    result = login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert result.kind == "key"
    assert result.token == ""


def test_kid_waiting_for_parental_approval_gets_consent(session, make_account, human_check_payload):
    kid = make_account(email="kid@example.com", dob=date(2012, 9, 1), is_kid=True)
    result = login(
        session, "kid@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS, today=TODAY
    )
    assert result.kind == "consent"
    assert result.account.uuid == kid.uuid
    assert result.user_age == 12
    assert result.token == ""


def test_approved_kid_gets_a_session(session, make_account, human_check_payload):
    kid = make_account(email="kid@example.com", dob=date(2012, 9, 1), is_kid=True, parent_approved=True)
    result = login(session, "kid@example.com", DEMO_PASSWORD, False, human_check_payload(), ADDRESS)
    assert result.kind == "token"
    assert tokens.check_session(session, result.token, kid.uuid).status == "ok"


def test_deleted_account_cannot_log_in(session, make_account, human_check_payload):
    make_account(deleted_at=datetime(2025, 1, 1, tzinfo=UTC))
    with pytest.raises(FormErrors) as caught:
        login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}


def test_logout_ends_the_session(session, make_account, human_check_payload):
    make_account()
    result = login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert tokens.revoke_session(session, result.token) is True
    assert tokens.check_session(session, result.token).status == "invalid"


# --- Login attempt limits --------------------------------------------------------------------------------


def test_attempts_for_one_email_are_limited_per_minute(session, make_account, human_check_payload):
    make_account()
    make_account(email="other@example.com")
    allowed = parse(settings.login_limit_per_email).amount
    assert allowed == 5
    for _ in range(allowed):
        with pytest.raises(FormErrors) as caught:
            login(session, "rider@example.com", "wrong-password", True, human_check_payload(), ADDRESS)
        assert caught.value.errors == {"form": msg.LOGIN_FAILED}

    # The right password from another address does not help: the limit is per e-mail (any case).
    with pytest.raises(TooManyAttempts) as caught:
        login(session, "Rider@Example.com", DEMO_PASSWORD, True, human_check_payload(), "198.51.100.1")
    assert caught.value.errors == {"form": msg.LOGIN_RATE_LIMITED}

    result = login(session, "other@example.com", DEMO_PASSWORD, True, human_check_payload(), "198.51.100.2")
    assert result.kind == "token"


def test_attempts_from_one_address_are_limited_per_minute(session, human_check_payload):
    allowed = parse(settings.login_limit_per_address).amount
    for number in range(allowed):
        with pytest.raises(FormErrors) as caught:
            login(session, f"rider{number}@example.com", "password", True, human_check_payload(), ADDRESS)
        assert caught.value.errors == {"form": msg.LOGIN_FAILED}

    with pytest.raises(TooManyAttempts):
        login(session, "fresh@example.com", "password", True, human_check_payload(), ADDRESS)
    with pytest.raises(FormErrors) as caught:
        login(session, "fresh@example.com", "password", True, human_check_payload(), "198.51.100.9")
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}


def test_failed_human_checks_do_not_lock_the_account(session, make_account, human_check_payload):
    """Anyone can send a bad human check: counting it would let them lock any rider out."""
    make_account()
    for _ in range(parse(settings.login_limit_per_email).amount + 1):
        with pytest.raises(FormErrors) as caught:
            login(session, "rider@example.com", "wrong-password", True, "bm90IGEgc29sdXRpb24=", ADDRESS)
        assert caught.value.errors == {"token": msg.HUMAN_CHECK_REQUIRED}

    result = login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert result.kind == "token"


def test_a_new_rider_starts_in_the_default_country(monkeypatch):
    """The DEFAULT_COUNTRY setting (AE), not the spec's id 246 (Finland in ISO 3166)."""
    assert RegistrationForm().country == "784"
    monkeypatch.setattr(countries, "settings", dataclasses.replace(countries.settings, default_country="FI"))
    assert RegistrationForm().country == "246"
