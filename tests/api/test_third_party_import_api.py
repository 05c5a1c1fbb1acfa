"""Third-party import over the REST API: post-third-party-data with its multipart form and proof files,
set-user-has-seen, and the import status the dashboard reads. Bad input stores nothing."""

import pytest
from sqlmodel import select

from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import registration as file_msg
from cycling_site.messages import third_party_import as msg
from cycling_site.models import RiderFile, Role
from cycling_site.models.third_party_import import ThirdPartyImport
from cycling_site.services import rider_files
from cycling_site.services import third_party_import as imports
from tests import file_samples
from tests.api.auth_support import bearer
from tests.api.test_auth_api import assert_error_shape
from tests.unit.conftest import count

POST = "/api/auth/post-third-party-data"
SEEN = "/api/auth/set-user-has-seen"
STATUS = "/api/auth/third-party-import"
FORM = {
    "migration_platform": "Rouvy",
    "total_time_spent[days]": "10",
    "total_time_spent[hours]": "5",
    "total_time_spent[minutes]": "30",
    "overall_distance[value]": "2500.5",
    "overall_distance[unit]": "miles",
    "overall_elevation_meter": "31000",
    "profile_link": "https://rouvy.com/member/layla",
}


def proofs(count_: int = 1, data: bytes | None = None, name: str = "totals.png") -> list:
    return [(f"proof_files[{n}]", (name, data or file_samples.png(), "image/png")) for n in range(count_)]


def stored_files() -> set:
    folder = rider_files._path("x").parent
    return set(folder.iterdir()) if folder.exists() else set()


@pytest.fixture
def rider(make_account):
    return make_account()


@pytest.fixture
def reviewer(make_account):
    return make_account(email="racecontrol@example.com", role=Role.race_control)


def refused(response, errors: dict[str, str], status_code: int = 400) -> None:
    body = assert_error_shape(response, status_code)
    assert body["errors"] == {field: [text] for field, text in errors.items()}
    assert body["message"] == next(iter(errors.values()))


def nothing_stored(session, before: set) -> None:
    assert count(session, ThirdPartyImport) == 0
    assert count(session, RiderFile) == 0
    assert stored_files() == before


def test_the_status_before_any_import_offers_it(client, session, rider):
    answer = client.get(STATUS, headers=bearer(rider))
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert data["status"] == "none" and data["banner"] == "offer"
    assert data["total_ride_time"] is None and data["migration_platform"] is None


def test_an_import_with_proof_files_is_stored_for_review(client, session, rider):
    files = [*proofs(2), ("proof_files[2]", ("strava.pdf", file_samples.pdf(), "application/pdf"))]
    answer = client.post(POST, data=FORM, files=files, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["message"] == msg.SUBMITTED
    data = body["data"]
    assert (data["status"], data["banner"], data["migration_platform"]) == ("submitted", "submitted", "Rouvy")
    assert data["total_ride_time"] == 10 * 86_400 + 5 * 3600 + 30 * 60
    assert data["total_distance"] == pytest.approx(2500.5 * 1.609344)
    assert data["total_elevation"] == 31000
    row = session.exec(select(ThirdPartyImport)).one()
    kept = [session.get(RiderFile, file_id) for file_id in row.proof_file_ids]
    assert [(file.kind, file.content_type) for file in kept] == [
        ("import_proof", "image/png"),
        ("import_proof", "image/png"),
        ("import_proof", "application/pdf"),
    ]
    assert client.get(STATUS, headers=bearer(rider)).json()["data"]["banner"] == "submitted"


def test_repeated_proof_files_fields_are_taken_too(client, session, rider):
    files = [("proof_files", ("a.png", file_samples.png(), "image/png"))] * 2
    answer = client.post(POST, data=FORM, files=files, headers=bearer(rider))
    assert answer.status_code == 200, answer.text
    assert len(session.exec(select(ThirdPartyImport)).one().proof_file_ids) == 2


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({"migration_platform": ""}, {"migration_platform": msg.PLATFORM_REQUIRED}),
        ({"total_time_spent[days]": "-2"}, {"total_time_spent[days]": msg.DAYS_NEGATIVE}),
        ({"total_time_spent[hours]": "24"}, {"total_time_spent[hours]": msg.HOURS_RANGE}),
        ({"total_time_spent[minutes]": "60"}, {"total_time_spent[minutes]": msg.MINUTES_RANGE}),
        ({"total_time_spent[minutes]": "5.5"}, {"total_time_spent[minutes]": msg.TIME_INTEGER}),
        ({"total_time_spent[days]": ""}, {"total_time_spent[days]": msg.TIME_REQUIRED}),
        ({"overall_distance[value]": ""}, {"overall_distance[value]": msg.DISTANCE_REQUIRED}),
        ({"overall_distance[unit]": ""}, {"overall_distance[unit]": msg.DISTANCE_REQUIRED}),
        ({"overall_elevation_meter": ""}, {"overall_elevation_meter": msg.ELEVATION_REQUIRED}),
        ({"profile_link": ""}, {"profile_link": msg.PROFILE_LINK_REQUIRED}),
        ({"profile_link": "javascript:alert(1)"}, {"profile_link": msg.PROFILE_LINK_INVALID}),
        ({"profile_link": "ftp://rouvy.com/me"}, {"profile_link": msg.PROFILE_LINK_INVALID}),
    ],
)
def test_each_rule_answers_its_message_per_field(client, session, rider, changes, errors):
    before = stored_files()
    answer = client.post(POST, data={**FORM, **changes}, files=proofs(), headers=bearer(rider))
    refused(answer, errors)
    nothing_stored(session, before)


def test_every_broken_rule_is_answered_at_once(client, session, rider):
    answer = client.post(POST, data={"overall_distance[unit]": "kilometers"}, headers=bearer(rider))
    refused(
        answer,
        {
            "migration_platform": msg.PLATFORM_REQUIRED,
            "total_time_spent[days]": msg.TIME_REQUIRED,
            "total_time_spent[hours]": msg.TIME_REQUIRED,
            "total_time_spent[minutes]": msg.TIME_REQUIRED,
            "overall_distance[value]": msg.DISTANCE_REQUIRED,
            "overall_elevation_meter": msg.ELEVATION_REQUIRED,
            "profile_link": msg.PROFILE_LINK_REQUIRED,
            "proof_files": msg.PROOF_REQUIRED,
        },
    )


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (proofs(11), msg.TOO_MANY_FILES),
        (proofs(1, file_samples.text_as_jpeg(), "photo.jpg"), file_msg.INVALID_FILE_TYPE),
        (proofs(1, file_samples.jpeg_with_html(), "photo.jpg"), file_msg.INVALID_FILE_TYPE),
        (proofs(1, file_samples.gif(), "photo.png"), file_msg.INVALID_FILE_TYPE),
        ([*proofs(2), *proofs(1, file_samples.oversized_jpeg(), "big.jpg")], file_msg.FILE_TOO_LARGE),
        ([], msg.PROOF_REQUIRED),
    ],
)
def test_bad_proof_files_are_refused_and_none_kept(client, session, rider, files, message):
    before = stored_files()
    answer = client.post(POST, data=FORM, files=files or None, headers=bearer(rider))
    refused(answer, {"proof_files": message})
    nothing_stored(session, before)


def test_a_second_submit_while_one_waits_is_refused(client, session, rider):
    assert client.post(POST, data=FORM, files=proofs(), headers=bearer(rider)).status_code == 200
    files_before, disk_before = count(session, RiderFile), stored_files()
    answer = client.post(POST, data=FORM, files=proofs(), headers=bearer(rider))
    refused(answer, {"import": msg.ALREADY_WAITING})
    assert count(session, ThirdPartyImport) == 1
    assert count(session, RiderFile) == files_before and stored_files() == disk_before


def test_approval_congratulates_until_seen_then_no_new_import(client, session, rider, reviewer):
    client.post(POST, data=FORM, files=proofs(), headers=bearer(rider))
    refused(client.post(SEEN, headers=bearer(rider)), {"import": msg.NOTHING_TO_SEE})
    row = session.exec(select(ThirdPartyImport)).one()
    imports.decide(session, reviewer, row.id, True, "")
    assert client.get(STATUS, headers=bearer(rider)).json()["data"]["banner"] == "approved"
    seen = client.post(SEEN, headers=bearer(rider))
    assert seen.status_code == 200 and seen.json()["message"] == msg.SEEN
    assert seen.json()["data"]["has_seen"] is True and seen.json()["data"]["banner"] == ""
    assert client.post(SEEN, headers=bearer(rider)).status_code == 200
    refused(
        client.post(POST, data=FORM, files=proofs(), headers=bearer(rider)), {"import": msg.ALREADY_APPROVED}
    )


def test_after_a_rejection_the_rider_imports_again(client, session, rider, reviewer):
    client.post(POST, data=FORM, files=proofs(), headers=bearer(rider))
    row = session.exec(select(ThirdPartyImport)).one()
    imports.decide(session, reviewer, row.id, False, "Totals do not match.")
    data = client.get(STATUS, headers=bearer(rider)).json()["data"]
    assert (data["banner"], data["reason"]) == ("rejected", "Totals do not match.")
    again = client.post(
        POST, data={**FORM, "migration_platform": "Others"}, files=proofs(), headers=bearer(rider)
    )
    assert again.status_code == 200 and again.json()["data"]["status"] == "submitted"
    assert count(session, ThirdPartyImport) == 2


@pytest.mark.parametrize(("method", "path"), [("post", POST), ("post", SEEN), ("get", STATUS)])
def test_every_call_needs_a_sign_in(client, session, method, path):
    answer = client.request(method, path)
    assert answer.status_code == 401
    assert answer.json() == {"status": False, "message": accounts_msg.SESSION_EXPIRED}
    assert count(session, ThirdPartyImport) == 0
