"""Profile rules (spec 2 sections 3, 4, 5 and 9): edit, kid lock, avatar, password change, deletion."""

import re
from datetime import UTC, date, datetime, timedelta
from io import BytesIO

import pytest
from PIL import Image
from sqlmodel import Session, select

from cycling_site.messages import accounts as msg
from cycling_site.models import (
    Account,
    AccountCode,
    CodePurpose,
    Connection,
    OAuthState,
    OutboxMessage,
    Role,
    Team,
)
from cycling_site.services import accounts, codes, profile, teams, tokens
from cycling_site.services.accounts import FormErrors, TooManyAttempts, password_matches
from cycling_site.services.codes import CodeError
from cycling_site.services.profile import ProfileForm
from cycling_site.services.teams import TeamForm
from cycling_site.settings import settings
from tests.unit.conftest import DEMO_PASSWORD, count

TODAY = date(2025, 6, 15)
ADDRESS = "203.0.113.9"


def edit(**overrides) -> ProfileForm:
    values = {
        "firstname": "Layla",
        "lastname": "Haddad",
        "country": "784",
        "gender": "1",
        "weight": "58.5",
        "height": "168",
        "marketing_consent": False,
        "dob": "1990-05-20",
    }
    values.update(overrides)
    return ProfileForm(**values)


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (640, 400), mode: str = "RGB", **save) -> bytes:
    out = BytesIO()
    Image.new(mode, size, (200, 60, 20) if mode == "RGB" else None).save(out, fmt, **save)
    return out.getvalue()


def stored_row(session: Session, account: Account) -> Account:
    session.expire_all()
    return session.get(Account, account.id)


# --- Profile edit ---------------------------------------------------------------------------------------


def test_update_stores_every_field(session, make_account):
    account = make_account()
    profile.update_profile(
        session,
        account,
        edit(
            firstname=" Zoë-Ann ",
            lastname="Núñez",
            country="250",
            gender="0",
            weight="72.34",
            height="181",
            marketing_consent=True,
            dob="1988-02-29",
        ),
        TODAY,
    )
    row = stored_row(session, account)
    assert (row.firstname, row.lastname, row.country, row.gender) == ("Zoë-Ann", "Núñez", 250, 0)
    assert (row.weight, row.height, row.marketing_consent, row.dob) == (72.3, 181, True, date(1988, 2, 29))


REFUSED = [
    pytest.param({"firstname": ""}, {"firstname": msg.required("First Name")}, id="firstname-missing"),
    pytest.param({"lastname": "  "}, {"lastname": msg.required("Last Name")}, id="lastname-blank"),
    pytest.param({"firstname": "Иван"}, {"firstname": msg.NON_LATIN}, id="firstname-non-latin"),
    pytest.param({"lastname": "李"}, {"lastname": msg.NON_LATIN}, id="lastname-non-latin"),
    pytest.param({"firstname": "x" * 51}, {"firstname": msg.too_long("First Name", 50)}, id="name-long"),
    pytest.param({"country": "999"}, {"country": msg.COUNTRY_INVALID}, id="country-unknown"),
    pytest.param({"country": "UAE"}, {"country": msg.COUNTRY_INVALID}, id="country-text"),
    pytest.param({"gender": "2"}, {"gender": msg.GENDER_INVALID}, id="gender-open"),
    pytest.param({"weight": ""}, {"weight": msg.required("Weight")}, id="weight-missing"),
    pytest.param({"weight": "heavy"}, {"weight": msg.not_a_number("Weight")}, id="weight-text"),
    pytest.param({"weight": "24.9"}, {"weight": msg.WEIGHT_TOO_LOW}, id="weight-low"),
    pytest.param({"weight": "140.1"}, {"weight": msg.WEIGHT_TOO_HIGH}, id="weight-high"),
    pytest.param({"height": ""}, {"height": msg.required("Height")}, id="height-missing"),
    pytest.param({"height": "49"}, {"height": msg.HEIGHT_RANGE}, id="height-low"),
    pytest.param({"height": "251"}, {"height": msg.HEIGHT_RANGE}, id="height-high"),
    pytest.param({"height": "nan"}, {"height": msg.not_a_number("Height")}, id="height-nan"),
    pytest.param({"dob": ""}, {"dob": msg.required("Date of Birth")}, id="dob-missing"),
    pytest.param({"dob": None}, {"dob": msg.required("Date of Birth")}, id="dob-omitted-adult"),
    pytest.param({"dob": "20/05/1990"}, {"dob": msg.DOB_INVALID}, id="dob-format"),
    pytest.param({"dob": "1899-12-31"}, {"dob": msg.DOB_INVALID}, id="dob-too-old"),
    pytest.param({"dob": "2020-01-01"}, {"dob": msg.TOO_YOUNG}, id="dob-under-six"),
    pytest.param({"dob": "2010-01-01"}, {"dob": msg.ADULT_DOB_ONLY}, id="dob-adult-to-kid"),
]


@pytest.mark.parametrize(("overrides", "errors"), REFUSED)
def test_each_rule_refuses_and_changes_nothing(session, make_account, overrides, errors):
    account = make_account()
    with pytest.raises(FormErrors) as caught:
        profile.update_profile(session, account, edit(**overrides, marketing_consent=True), TODAY)
    assert caught.value.errors == errors
    row = stored_row(session, account)
    assert (row.firstname, row.weight, row.height, row.dob) == ("Layla", 58.5, 168, date(1990, 5, 20))
    assert row.marketing_consent is False


def test_weight_and_height_limits_are_inclusive(session, make_account):
    account = make_account()
    profile.update_profile(session, account, edit(weight="25", height="250"), TODAY)
    profile.update_profile(session, account, edit(weight="140", height="50"), TODAY)
    row = stored_row(session, account)
    assert (row.weight, row.height) == (140, 50)


def test_every_broken_field_gets_its_message(session, make_account):
    account = make_account()
    with pytest.raises(FormErrors) as caught:
        profile.update_profile(
            session, account, edit(firstname="", weight="200", height="10", gender="x"), TODAY
        )
    assert caught.value.errors == {
        "firstname": msg.required("First Name"),
        "gender": msg.GENDER_INVALID,
        "weight": msg.WEIGHT_TOO_HIGH,
        "height": msg.HEIGHT_RANGE,
    }


def test_adult_turning_eighteen_today_is_accepted(session, make_account):
    account = make_account()
    latest = profile.latest_adult_dob(TODAY)
    assert latest == date(2007, 6, 15)
    profile.update_profile(session, account, edit(dob=latest.isoformat()), TODAY)
    assert stored_row(session, account).dob == latest
    assert profile.latest_adult_dob(date(2024, 2, 29)) == date(2006, 2, 28)


# --- Kid accounts: the date of birth is locked ----------------------------------------------------------


def kid(make_account) -> Account:
    return make_account(
        email="kid@example.com",
        is_kid=True,
        parent_email="parent@example.com",
        parent_approved=True,
        dob=date(2013, 6, 2),
    )


def test_kid_updates_without_dob(session, make_account):
    account = kid(make_account)
    profile.update_profile(session, account, edit(dob=None, firstname="Omar", weight="42"), TODAY)
    row = stored_row(session, account)
    assert (row.firstname, row.weight, row.dob) == ("Omar", 42, date(2013, 6, 2))


def test_kid_sending_the_same_dob_is_accepted(session, make_account):
    account = kid(make_account)
    profile.update_profile(session, account, edit(dob="2013-06-02", firstname="Omar"), TODAY)
    assert stored_row(session, account).firstname == "Omar"


@pytest.mark.parametrize("dob", ["2000-01-01", "2012-06-02", "not-a-date"])
def test_kid_cannot_change_dob(session, make_account, dob):
    account = kid(make_account)
    with pytest.raises(FormErrors) as caught:
        profile.update_profile(session, account, edit(dob=dob, firstname="Omar"), TODAY)
    assert caught.value.errors == {"dob": msg.KID_DOB_LOCKED}
    row = stored_row(session, account)
    assert (row.firstname, row.dob) == ("Layla", date(2013, 6, 2))


# --- Avatar ---------------------------------------------------------------------------------------------


def stored_image(account: Account) -> Image.Image:
    path = settings.data_dir / account.avatar
    image = Image.open(path)
    image.load()
    return image


@pytest.mark.parametrize(
    ("data", "size"),
    [
        pytest.param(image_bytes("PNG", (640, 400)), (640, 400), id="png-wide"),
        pytest.param(image_bytes("JPEG", (300, 900)), (300, 900), id="jpeg-tall"),
        pytest.param(image_bytes("WEBP", (100, 100)), (100, 100), id="webp-small"),
        pytest.param(image_bytes("GIF", (512, 512)), (512, 512), id="gif"),
    ],
)
def test_avatar_is_cropped_to_256_square_webp(session, make_account, data, size):
    account = make_account()
    profile.store_avatar(session, account, data)
    row = stored_row(session, account)
    assert row.avatar.startswith("avatars/") and row.avatar.endswith(".webp")
    assert len(row.avatar) > profile.AVATAR_REMOVABLE_AFTER
    image = stored_image(row)
    assert image.format == "WEBP"
    assert image.size == (256, 256)


def test_avatar_drops_metadata(session, make_account):
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x8825] = {2: (25.0, 12.0, 0.0)}  # GPS latitude
    account = make_account()
    upload = image_bytes("JPEG", exif=exif.tobytes())
    assert b"SecretCam" in upload
    profile.store_avatar(session, account, upload)
    image = stored_image(stored_row(session, account))
    assert not image.getexif()
    assert "exif" not in image.info and "xmp" not in image.info
    assert b"SecretCam" not in (settings.data_dir / stored_row(session, account).avatar).read_bytes()


def test_avatar_keeps_transparency(session, make_account):
    account = make_account()
    profile.store_avatar(session, account, image_bytes("PNG", mode="RGBA"))
    assert stored_image(stored_row(session, account)).mode == "RGBA"


def test_avatar_is_stored_outside_the_web_root_with_a_random_name(session, make_account):
    account = make_account()
    profile.store_avatar(session, account, image_bytes())
    first = stored_row(session, account).avatar
    profile.store_avatar(session, account, image_bytes())
    second = stored_row(session, account).avatar
    assert first != second
    assert not (settings.data_dir / first).exists(), "the replaced file is removed"
    assert (settings.data_dir / second).is_file()
    assert re.fullmatch(r"avatars/[0-9a-f]{32}\.webp", second)
    assert (settings.data_dir / second).parent == settings.data_dir / "avatars"


INVALID = [
    pytest.param(b"hello, this is not a picture\n" * 10, msg.INVALID_IMAGE, id="text-renamed-jpg"),
    pytest.param(b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n", msg.INVALID_IMAGE, id="pdf"),
    pytest.param(image_bytes("PNG")[:60], msg.INVALID_IMAGE, id="truncated-png"),
    pytest.param(image_bytes("BMP"), msg.INVALID_IMAGE, id="bmp-not-allowed"),
    pytest.param(b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", msg.INVALID_IMAGE, id="eps"),
    pytest.param(b"", msg.AVATAR_MISSING, id="empty"),
]


@pytest.mark.parametrize(("data", "message"), INVALID)
def test_avatar_checked_by_content(session, make_account, data, message):
    account = make_account()
    with pytest.raises(FormErrors) as caught:
        profile.store_avatar(session, account, data)
    assert caught.value.errors == {"avatar": message}
    assert stored_row(session, account).avatar is None


def test_avatar_over_5_mb_is_refused_before_decoding(session, make_account):
    account = make_account()
    big = image_bytes("PNG", (32, 32)) + b"\0" * profile.AVATAR_MAX_BYTES
    with pytest.raises(FormErrors) as caught:
        profile.store_avatar(session, account, big)
    assert caught.value.errors == {"avatar": msg.AVATAR_TOO_LARGE}
    assert stored_row(session, account).avatar is None


def test_avatar_of_exactly_5_mb_is_accepted(session, make_account):
    account = make_account()
    data = image_bytes("PNG", (32, 32))
    # Bytes after the PNG's end are ignored by the decoder, so the file is exactly at the limit.
    profile.store_avatar(session, account, data + b"\0" * (profile.AVATAR_MAX_BYTES - len(data)))
    assert stored_row(session, account).avatar


def test_avatar_with_too_many_pixels_is_refused(session, make_account):
    account = make_account()
    # A 1-bit PNG of 8000 x 6000 compresses to a few kilobytes: small file, huge image.
    data = image_bytes("PNG", (8000, 6000), mode="1")
    assert len(data) < profile.AVATAR_MAX_BYTES
    with pytest.raises(FormErrors) as caught:
        profile.store_avatar(session, account, data)
    assert caught.value.errors == {"avatar": msg.AVATAR_TOO_MANY_PIXELS}


def test_avatar_beyond_the_decoder_bomb_limit_is_refused(session, make_account):
    account = make_account()
    # Pillow itself refuses images over twice its pixel limit when opening them.
    data = image_bytes("PNG", (20000, 20000), mode="1")
    with pytest.raises(FormErrors) as caught:
        profile.store_avatar(session, account, data)
    assert caught.value.errors == {"avatar": msg.AVATAR_TOO_MANY_PIXELS}


def test_remove_avatar_deletes_the_file(session, make_account):
    account = make_account()
    profile.store_avatar(session, account, image_bytes())
    path = settings.data_dir / stored_row(session, account).avatar
    profile.remove_avatar(session, account)
    assert stored_row(session, account).avatar is None
    assert not path.exists()


@pytest.mark.parametrize("avatar", [None, "", "avatars/short.webp", "x" * 25])
def test_removal_needs_a_path_longer_than_25_characters(session, make_account, avatar):
    account = make_account(avatar=avatar)
    assert not profile.avatar_removable(avatar)
    with pytest.raises(FormErrors) as caught:
        profile.remove_avatar(session, account)
    assert caught.value.errors == {"avatar": msg.AVATAR_NONE}
    assert stored_row(session, account).avatar == avatar


def test_avatar_served_to_owner_and_race_control_only(session, make_account):
    owner = make_account()
    other = make_account(email="other@example.com")
    race_control = make_account(email="rc@example.com", role=Role.race_control)
    admin = make_account(email="admin@example.com", role=Role.admin)
    finance = make_account(email="finance@example.com", role=Role.finance)
    profile.store_avatar(session, owner, image_bytes())
    name = stored_row(session, owner).avatar.removeprefix("avatars/")

    assert profile.avatar_file(session, owner, name) == settings.data_dir / "avatars" / name
    assert profile.avatar_file(session, race_control, name) is not None
    assert profile.avatar_file(session, admin, name) is not None
    assert profile.avatar_file(session, other, name) is None
    assert profile.avatar_file(session, finance, name) is None
    assert profile.avatar_file(session, owner, "../unit.db") is None
    assert profile.avatar_file(session, owner, "0" * 32 + ".webp") is None


def test_avatar_url_only_for_stored_names():
    name = "ab" * 16 + ".webp"
    assert profile.avatar_url(f"avatars/{name}") == f"/api/auth/avatar/{name}"
    assert profile.avatar_url(None) == ""
    assert profile.avatar_url("avatars/../../secret.webp") == ""


# --- Password change ------------------------------------------------------------------------------------


def test_change_password_sets_the_new_one_and_ends_the_session(session, make_account):
    account = make_account()
    issued = tokens.issue_session_token(account, remember=True)
    new = "new-secret"
    profile.change_password(session, account, DEMO_PASSWORD, new, new, ADDRESS)
    row = stored_row(session, account)
    assert password_matches(row, "new-secret")
    assert not password_matches(row, DEMO_PASSWORD)
    assert tokens.check_session(session, issued.token).status == "invalid"


PASSWORD_REFUSED = [
    pytest.param(
        ("", "new-secret", "new-secret"),
        {"current_password": msg.required("Current Password")},
        id="current-missing",
    ),
    pytest.param(
        ("wrong-one", "new-secret", "new-secret"),
        {"current_password": msg.CURRENT_PASSWORD_WRONG},
        id="current-wrong",
    ),
    pytest.param((DEMO_PASSWORD, "", ""), {"password": msg.required("Password")}, id="new-missing"),
    pytest.param((DEMO_PASSWORD, "12345", "12345"), {"password": msg.PASSWORD_TOO_SHORT}, id="new-short"),
    pytest.param(
        (DEMO_PASSWORD, "x" * 129, "x" * 129), {"password": msg.too_long("Password", 128)}, id="new-long"
    ),
    pytest.param(
        (DEMO_PASSWORD, "new-secret", "new-secreT"), {"repeatPassword": msg.PASSWORD_MISMATCH}, id="mismatch"
    ),
]


@pytest.mark.parametrize(("values", "errors"), PASSWORD_REFUSED)
def test_change_password_rules(session, make_account, values, errors):
    account = make_account()
    issued = tokens.issue_session_token(account, remember=True)
    with pytest.raises(FormErrors) as caught:
        profile.change_password(session, account, *values, ADDRESS)
    assert caught.value.errors == errors
    assert password_matches(stored_row(session, account), DEMO_PASSWORD)
    assert tokens.check_session(session, issued.token).status == "ok"


def test_wrong_current_passwords_are_limited(session, make_account):
    account = make_account()
    for _ in range(5):
        with pytest.raises(FormErrors):
            profile.change_password(session, account, "guess", "new-secret", "new-secret", ADDRESS)
    with pytest.raises(TooManyAttempts) as caught:
        profile.change_password(session, account, DEMO_PASSWORD, "new-secret", "new-secret", ADDRESS)
    assert caught.value.errors == {"current_password": msg.LOGIN_RATE_LIMITED}
    assert password_matches(stored_row(session, account), DEMO_PASSWORD)


# --- Account deletion -----------------------------------------------------------------------------------


def deletion_link(session: Session, recipient: str) -> str:
    message = session.exec(select(OutboxMessage).where(OutboxMessage.recipient == recipient)).one()
    assert message.subject == f"Confirm the deletion of your {settings.site_name} account"
    link = next(word for word in message.body.split() if word.startswith(settings.site_url))
    assert link.startswith(f"{settings.site_url}/delete-user/")
    return link.rsplit("/", 1)[-1]


def test_request_emails_a_48_hour_link_and_ends_the_session(session, make_account):
    account = make_account()
    issued = tokens.issue_session_token(account, remember=True)
    assert profile.request_deletion(session, account, issued.token) == "rider@example.com"
    code = deletion_link(session, "rider@example.com")
    row = session.exec(select(AccountCode).where(AccountCode.account_id == account.id)).one()
    assert row.purpose == CodePurpose.delete_account
    assert row.code_hash != code, "only a hash of the code is stored"
    lifetime = row.expires_at.replace(tzinfo=UTC) - row.created_at.replace(tzinfo=UTC)
    assert abs(lifetime - timedelta(hours=48)) < timedelta(seconds=5)
    assert tokens.check_session(session, issued.token).status == "invalid"
    assert stored_row(session, account).deleted_at is None, "nothing is deleted before the link is opened"


def test_kid_deletion_is_confirmed_by_the_parent(session, make_account):
    account = kid(make_account)
    assert profile.request_deletion(session, account) == "parent@example.com"
    deletion_link(session, "parent@example.com")
    assert count(session, OutboxMessage) == 1


def test_confirmation_anonymises_the_account(session, make_account):
    account = make_account(marketing_consent=True, parent_email="mum@example.com")
    own_team = teams.create(session, account, TeamForm("Desert Falcons"))
    profile.store_avatar(session, account, image_bytes())
    avatar_path = settings.data_dir / stored_row(session, account).avatar
    session.add(Connection(account_id=account.id, network="strava", access_token="secret"))
    session.add(
        OAuthState(
            state="s1", account_id=account.id, network="strava", expires_at=datetime.now(UTC) + timedelta(1)
        )
    )
    other = make_account(email="other@example.com")
    session.add(Connection(account_id=other.id, network="strava"))
    session.commit()
    profile.request_deletion(session, account)
    code = deletion_link(session, "rider@example.com")

    profile.confirm_deletion(session, code)

    row = stored_row(session, account)
    assert row.deleted_at is not None
    assert row.email.startswith("deleted-") and row.email.endswith("@deleted.invalid")
    assert "rider" not in row.email
    assert (row.firstname, row.lastname) != ("Layla", "Haddad")
    assert row.dob == date(1900, 1, 1)
    assert (row.avatar, row.parent_email, row.marketing_consent) == (None, None, False)
    # The team it rode for alone is closed.
    assert session.get(Team, own_team.id) is None and teams.header_team(session, account.id) is None
    assert not password_matches(row, DEMO_PASSWORD)
    assert not avatar_path.exists()
    assert session.exec(select(Connection).where(Connection.account_id == account.id)).all() == []
    assert session.exec(select(OAuthState).where(OAuthState.account_id == account.id)).all() == []
    assert all(code_row.sent_to is None for code_row in session.exec(select(AccountCode)))
    assert stored_row(session, other).deleted_at is None
    assert len(session.exec(select(Connection)).all()) == 1, "other riders' connections stay"


def test_deleted_account_cannot_sign_in_and_its_email_is_free(session, make_account, human_check_payload):
    account = make_account()
    profile.request_deletion(session, account)
    profile.confirm_deletion(session, deletion_link(session, "rider@example.com"))
    with pytest.raises(FormErrors) as caught:
        accounts.login(session, "rider@example.com", DEMO_PASSWORD, True, human_check_payload(), ADDRESS)
    assert caught.value.errors == {"form": msg.LOGIN_FAILED}
    assert make_account(email="rider@example.com").id != account.id


def test_code_is_single_use(session, make_account):
    account = make_account()
    profile.request_deletion(session, account)
    code = deletion_link(session, "rider@example.com")
    profile.confirm_deletion(session, code)
    with pytest.raises(CodeError, match=msg.CODE_USED):
        profile.confirm_deletion(session, code)


def test_expired_code_changes_nothing(session, make_account):
    account = make_account()
    profile.request_deletion(session, account)
    code = deletion_link(session, "rider@example.com")
    row = session.exec(select(AccountCode)).one()
    row.expires_at = datetime.now(UTC) - timedelta(seconds=1)
    session.add(row)
    session.commit()
    with pytest.raises(CodeError, match=msg.CODE_EXPIRED):
        profile.confirm_deletion(session, code)
    assert stored_row(session, account).deleted_at is None
    assert stored_row(session, account).email == "rider@example.com"


def test_a_new_request_cancels_the_earlier_link(session, make_account):
    account = make_account()
    profile.request_deletion(session, account)
    first = deletion_link(session, "rider@example.com")
    for message in session.exec(select(OutboxMessage)):
        session.delete(message)
    session.commit()
    profile.request_deletion(session, account)
    second = deletion_link(session, "rider@example.com")
    with pytest.raises(CodeError, match=msg.CODE_USED):
        profile.confirm_deletion(session, first)
    profile.confirm_deletion(session, second)


@pytest.mark.parametrize("code", ["", "nope", "x" * 500])
def test_unknown_codes_are_invalid(session, make_account, code):
    make_account()
    with pytest.raises(CodeError, match=msg.CODE_INVALID):
        profile.confirm_deletion(session, code)


def test_code_of_another_purpose_or_account_deletes_nothing_else(session, make_account):
    account = make_account()
    other = make_account(email="other@example.com")
    reset = codes.issue(session, account, CodePurpose.reset_password, timedelta(hours=1))
    session.commit()
    with pytest.raises(CodeError, match=msg.CODE_INVALID):
        profile.confirm_deletion(session, reset.code)
    assert stored_row(session, account).deleted_at is None

    profile.request_deletion(session, other)
    profile.confirm_deletion(session, deletion_link(session, "other@example.com"))
    assert stored_row(session, other).deleted_at is not None
    assert stored_row(session, account).deleted_at is None
    assert stored_row(session, account).email == "rider@example.com"
