"""The activity service's wire contract as a caller sees it, and the dashboard's rider default data."""

import dataclasses
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import func, select

from cycling_site.api.main import api
from cycling_site.clients import activity as activity_client
from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity import service as activity_service
from cycling_site.embedded.activity.models import Ride
from cycling_site.models import Role
from cycling_site.services import accounts, teams
from cycling_site.services.teams import TeamForm
from cycling_site.settings import settings
from cycling_site.wire import activity as activity_wire
from cycling_site.wire.activity import seal
from tests.activity_support import INDOOR, PAUSED, add_ride, fixture_bytes, small_fit
from tests.api.test_auth_api import sign_in
from tests.api.test_profile_api import bearer

BASE = activity_client.EMBEDDED_PREFIX
UPLOAD = f"{BASE}/v2/rider/activities/upload"
START = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
OTHER = "22222222-2222-2222-2222-222222222222"


def _post(client, path: str, fields: dict, key: str | None = None):
    body = seal(fields, key or settings.activity_service_key, path)
    return client.post(BASE + path, json=body)


def _get(client, path: str, fields: dict):
    header = json.dumps(seal(fields, settings.activity_service_key, path))
    return client.get(BASE + path, headers={"X-Payload": header})


def _upload(client, data: bytes, rider: str, key: str | None = None, **fields):
    form = {"uuid": rider, "ftp": "250", "weight": "70", **fields}
    headers = {"Authorization": f"Bearer {key or settings.activity_ingest_key}"}
    return client.post(
        UPLOAD, data=form, files={"file": ("ride.fit", data, "application/octet-stream")}, headers=headers
    )


def _refused(response, status_code: int, message: str) -> None:
    assert response.status_code == status_code, response.text
    assert response.json() == {"status": False, "message": message}


def _rides(session) -> int:
    return session.exec(select(func.count()).select_from(Ride)).one()


@pytest.fixture(autouse=True)
def embedded():
    activity_service.install(api, accounts.rider_exists)
    activity_client.serve_embedded_from(api)


@pytest.fixture
def rider(make_account):
    return make_account()


def test_the_game_client_uploads_with_the_service_key(client, session, rider):
    response = _upload(
        client, fixture_bytes(INDOOR), rider.uuid, type="workout", title="Sweet spot", routeName="Hatta"
    )
    assert response.status_code == 200, response.text
    row = response.json()["data"]
    assert (row["type"], row["title"], row["routeName"]) == ("workout", "Sweet spot", "Hatta")
    listed = _post(client, "/v2/rider/profile/activities", {"uuid": rider.uuid, "type": "all", "page": 1})
    assert listed.json()["data"]["results"][0]["activityFileId"] == row["activityFileId"]


@pytest.mark.parametrize("key", ["", "wrong-key"])
def test_an_upload_without_the_service_key_is_refused(client, session, rider, key):
    response = client.post(
        UPLOAD,
        data={"uuid": rider.uuid, "ftp": "250", "weight": "70"},
        files={"file": ("ride.fit", fixture_bytes(INDOOR))},
        headers={"Authorization": f"Bearer {key}"} if key else {},
    )
    _refused(response, 401, activity_service.NOT_AUTHORISED)
    assert _rides(session) == 0


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"not a fit file at all", 400),
        (b"\x89PNG\r\n\x1a\n" + bytes(200), 400),
        ("truncated", 400),
        ("duplicate", 409),
    ],
)
def test_bad_uploads_get_a_clear_error_and_store_nothing_new(client, session, rider, data, status):
    expected = 0
    if data == "truncated":
        data = fixture_bytes(INDOOR)[:5000]
    elif data == "duplicate":
        data = small_fit(START)
        assert _upload(client, data, rider.uuid).status_code == 200
        expected = 1
    response = _upload(client, data, rider.uuid)
    assert response.status_code == status
    body = response.json()
    assert body["status"] is False and body["message"]
    assert _rides(session) == expected


def test_an_upload_without_a_file_or_with_bad_fields_is_refused(client, session, rider):
    headers = {"Authorization": f"Bearer {settings.activity_ingest_key}"}
    response = client.post(UPLOAD, data={"uuid": rider.uuid, "ftp": "250", "weight": "70"}, headers=headers)
    _refused(response, 400, activity_service.NO_FILE)
    assert _upload(client, small_fit(START), rider.uuid, type="race").json()["message"] == rides.BAD_TYPE
    assert _upload(client, small_fit(START), rider.uuid, ftp="abc").status_code == 400
    assert _rides(session) == 0


@pytest.mark.parametrize("owner", ["unknown", "deleted", "junk", "nul"])
def test_uploads_for_riders_the_site_does_not_have_are_refused(client, session, make_account, owner):
    """The game client can only store rides of existing riders: no ownerless rides."""
    uuids = {
        "unknown": "33333333-3333-3333-3333-333333333333",
        "deleted": make_account(deleted_at=datetime(2026, 1, 1, tzinfo=UTC)).uuid,
        "junk": "'; drop table ride; --",
        "nul": "abc\x00def",
    }
    response = _upload(client, small_fit(START), uuids[owner])
    assert response.status_code == 404, response.text
    assert response.json() == {"status": False, "message": activity_service.UNKNOWN_RIDER}
    assert _rides(session) == 0


def test_a_paused_real_ride_is_accepted(client, session, rider):
    assert _upload(client, fixture_bytes(PAUSED), rider.uuid).status_code == 200


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"uuid": "abc", "page": 1}, activity_wire.NOT_ENCRYPTED),
        ("wrong key", activity_wire.NOT_READABLE),
        ("wrong call", activity_wire.NOT_READABLE),
        ("not json", activity_service.NOT_JSON),
    ],
)
def test_payloads_not_sealed_with_our_key_for_this_call_are_refused(client, session, rider, body, message):
    path = "/v2/rider/profile/activities"
    if body == "wrong key":
        response = _post(client, path, {"uuid": rider.uuid}, key="33" * 32)
    elif body == "wrong call":
        response = client.post(
            BASE + path, json=seal({"uuid": rider.uuid}, settings.activity_service_key, "/x")
        )
    elif body == "not json":
        response = client.post(BASE + path, content=b"{nope", headers={"content-type": "application/json"})
    else:
        response = client.post(BASE + path, json=body)
    _refused(response, 400, message)


def test_a_get_call_needs_a_sealed_header_for_the_same_rider(client, session, rider):
    add_ride(session, rider.uuid, small_fit(START), type="event")
    assert _get(client, "/get-user-events-count", {"uuid": rider.uuid}).json()["data"] == {"total": 1}
    assert client.get(f"{BASE}/get-user-events-count").status_code == 400
    path = f"/progressWall/{rider.uuid}/2026/11/1"
    assert _get(client, path, {"uuid": rider.uuid}).json()["data"]["overall"]["races"] == 1
    stolen = _get(client, path, {"uuid": OTHER})
    assert stolen.status_code == 404


def test_with_encryption_off_plain_payloads_are_read(client, session, rider, monkeypatch):
    plain = dataclasses.replace(settings, activity_encryption=False)
    monkeypatch.setattr(activity_service, "settings", plain)
    response = client.post(f"{BASE}/v2/rider/profile/activities", json={"uuid": rider.uuid})
    assert response.json()["data"]["totalCount"] == 0


def test_another_riders_file_id_answers_not_found(client, session, rider):
    theirs = add_ride(session, OTHER, small_fit(START))
    for path in ("/activity-info", "/detailed-graph-data", "/download-activity-file"):
        response = _post(client, path, {"uuid": rider.uuid, "fileId": theirs.file_id})
        _refused(response, 404, rides.NOT_FOUND)
    response = _post(client, "/power-curve", {"uuid": rider.uuid, "activityFileIds": [theirs.file_id]})
    assert response.status_code == 404


def test_info_graph_curve_and_download_of_the_riders_own_ride(client, session, rider):
    data = fixture_bytes(INDOOR)
    ride = add_ride(session, rider.uuid, data, file_name="indoor.fit")
    fields = {"uuid": rider.uuid, "fileId": ride.file_id}
    assert (
        _post(client, "/activity-info", fields).json()["data"]["header_detail"]["activityFileId"]
        == ride.file_id
    )
    assert _post(client, "/detailed-graph-data", fields).json()["data"]["power"]
    download = _post(client, "/download-activity-file", fields)
    assert download.content == data
    assert 'filename="indoor.fit"' in download.headers["content-disposition"]
    overall = _post(client, "/power-curve", {"uuid": rider.uuid, "activityFileIds": []}).json()["data"]
    assert overall["overall"]["power"][0] == round(ride.max_power)
    compare = _post(client, "/power-curve", {"uuid": rider.uuid, "activityFileIds": [ride.file_id]}).json()[
        "data"
    ]
    assert compare["compare"][0]["activityFileId"] == ride.file_id


def test_progress_routes(client, session, rider):
    add_ride(session, rider.uuid, small_fit(START, seconds=1200, speed=10))
    year = _get(client, f"/progress/{rider.uuid}/year/2026", {"uuid": rider.uuid}).json()["data"]
    assert year[10]["distance"] == 12.0
    month = _get(client, f"/progress/{rider.uuid}/month/2026/11", {"uuid": rider.uuid}).json()["data"]
    assert month[1]["distance"] == 12.0
    week = _get(client, f"/progress/{rider.uuid}/week/2026/11/2", {"uuid": rider.uuid}).json()["data"]
    assert week[0]["distance"] == 12.0
    bad = _get(client, f"/progress/{rider.uuid}/month/2026/13", {"uuid": rider.uuid})
    assert bad.status_code == 400


@pytest.mark.parametrize("path", ["/progress/{uuid}/year/twenty", "/progressWall/{uuid}/2026/11/first"])
def test_progress_for_a_period_that_is_not_a_number_is_refused(client, session, rider, path):
    answer = _get(client, path.format(uuid=rider.uuid), {"uuid": rider.uuid})
    assert answer.status_code == 400
    assert answer.json()["message"] == "The year, month and week must be whole numbers."


def test_progress_asked_again_follows_each_new_ride(client, session, rider):
    add_ride(session, rider.uuid, small_fit(START, seconds=1200, speed=10))
    wall_path, year_path = f"/progressWall/{rider.uuid}/2026/11/1", f"/progress/{rider.uuid}/year/2026"
    wall = _get(client, wall_path, {"uuid": rider.uuid}).json()["data"]
    assert _get(client, wall_path, {"uuid": rider.uuid}).json()["data"] == wall
    assert _get(client, year_path, {"uuid": rider.uuid}).json()["data"][10]["distance"] == 12.0
    add_ride(session, rider.uuid, small_fit(START + timedelta(hours=3), seconds=600, speed=10))
    wall = _get(client, wall_path, {"uuid": rider.uuid}).json()["data"]
    assert wall["overall"]["allRides"] == wall["year"]["allRides"] == 2
    assert wall["overall"]["distance"] == wall["month"]["distance"] == 18.0
    assert _get(client, year_path, {"uuid": rider.uuid}).json()["data"][10]["distance"] == 18.0


def test_default_data_for_the_rider_profile(client, session, make_account):
    rider = make_account(ftp=280, level=12, category_id=2, verification_status="approved")
    teams.create(session, rider, TeamForm("Desert Falcons"))
    add_ride(session, rider.uuid, small_fit(START, watts=310, seconds=300), weight=rider.weight)
    response = client.post("/api/auth/get-default-data-for-rider-profile", headers=bearer(sign_in(client)))
    data = response.json()["data"]
    player = data["userData"]["data"]["PlayerData"]
    assert player["PlayerProfileStruct"] == {
        "PlayerFirstName": "Layla",
        "PlayerLastName": "Haddad",
        "Gender": 1,
        "Weight": 58.5,
        "HeightCm": 168,
        "PlayerCategoryId": 2,
    }
    assert player["PlayerPersonalStruct"] == {"PlayerLevel": 12, "PlayerFtp": 280}
    assert data["user"]["team"] == "Desert Falcons" and data["user"]["src_verification_status"] == "approved"
    assert data["user"]["countryCode"] == "ae" and data["user"]["isKid"] is False
    graph = data["overall_average_graph"]
    assert graph["power"][0] == 310 and graph["power_weight"][0] == pytest.approx(310 / 58.5, abs=0.01)


def test_default_data_needs_a_session(client, session):
    assert client.post("/api/auth/get-default-data-for-rider-profile").status_code == 401


def test_default_data_of_a_rider_without_rides(client, session, make_account):
    make_account(role=Role.rider)
    data = client.post("/api/auth/get-default-data-for-rider-profile", headers=bearer(sign_in(client))).json()
    assert data["data"]["overall_average_graph"] == {"seconds": [], "power": [], "power_weight": []}


def test_an_old_sealed_payload_is_refused(client, session, rider, monkeypatch):
    sealed = seal({"uuid": rider.uuid}, settings.activity_service_key, "/v2/rider/profile/activities")
    later = datetime.now(UTC) + timedelta(seconds=activity_wire.MAX_AGE_SECONDS + 10)
    monkeypatch.setattr(activity_wire.time, "time", later.timestamp)
    response = client.post(f"{BASE}/v2/rider/profile/activities", json=sealed)
    _refused(response, 400, activity_wire.EXPIRED)
