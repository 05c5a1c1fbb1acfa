"""The activity client over the wire: the embedded service answers it in-process, errors become
ActivityServiceError with the service's message, and an unreachable service says so."""

import dataclasses
import threading
from datetime import UTC, datetime, timedelta

import pytest

from cycling_site.api.main import api
from cycling_site.clients import activity
from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity import service as activity_service
from cycling_site.services import accounts
from tests.activity_support import INDOOR, add_ride, fixture_bytes, small_fit
from tests.unit.conftest import statement_threads

pytestmark = pytest.mark.anyio
RIDER = "11111111-1111-1111-1111-111111111111"
OTHER = "22222222-2222-2222-2222-222222222222"
START = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def embedded(make_account):
    activity_service.install(api, accounts.rider_exists)
    activity.serve_embedded_from(api)
    make_account(uuid=RIDER)


async def test_a_ride_uploaded_through_the_client_is_listed_and_read_back(session):
    data = fixture_bytes(INDOOR)
    row = await activity.upload(
        RIDER, data, "indoor.fit", ftp=250, weight=70, type="workout", title="Trainer"
    )
    assert (row["title"], row["type"]) == ("Trainer", "workout")
    page = await activity.activities(RIDER)
    assert [ride["activityFileId"] for ride in page["results"]] == [row["activityFileId"]]
    info = await activity.activity_info(RIDER, row["activityFileId"])
    assert info["header_detail"]["title"] == "Trainer"
    graph = await activity.detailed_graph_data(RIDER, row["activityFileId"])
    assert graph["axis"] == "time"
    assert await activity.download_activity_file(RIDER, row["activityFileId"]) == ("indoor.fit", data)
    overall = (await activity.power_curve(RIDER, []))["overall"]
    compared = (await activity.power_curve(RIDER, [row["activityFileId"]]))["compare"]
    assert overall["power"] == compared[0]["power"]
    assert await activity.events_count(RIDER) == 0


async def test_every_read_of_the_service_leaves_the_event_loop_free(session):
    """The site calls the service from its event loop: the service's reads must run in worker threads."""
    ride = add_ride(session, RIDER, small_fit(START))
    with statement_threads(session) as threads:
        await activity.power_curve(RIDER, [])
        await activity.progress_wall(RIDER, 2026, 11, 2)
        await activity.progress(RIDER, "year", 2026, 11, 2)
        await activity.activities(RIDER)
        await activity.activity_info(RIDER, ride.file_id)
        await activity.download_activity_file(RIDER, ride.file_id)
        await activity.events_count(RIDER)
    assert len(threads) >= 7 and threading.get_ident() not in threads


async def test_the_services_refusals_reach_the_caller_as_errors(session):
    theirs = add_ride(session, OTHER, small_fit(START))
    with pytest.raises(activity.ActivityServiceError, match=rides.NOT_FOUND) as refused:
        await activity.activity_info(RIDER, theirs.file_id)
    assert refused.value.status_code == 404
    with pytest.raises(activity.ActivityServiceError, match=rides.BAD_SORT):
        await activity.activities(RIDER, sort="sideways")
    with pytest.raises(activity.ActivityServiceError, match="not a FIT file"):
        await activity.upload(RIDER, b"plain text", "notes.fit", ftp=250, weight=70)


async def test_progress_through_the_client(session):
    add_ride(session, RIDER, small_fit(START, seconds=1200), type="event")
    add_ride(session, RIDER, small_fit(START + timedelta(days=1), seconds=600))
    wall = await activity.progress_wall(RIDER, 2026, 11, 2)
    assert wall["week"]["allRides"] == 2 and wall["week"]["races"] == 1
    bars = await activity.progress(RIDER, "week", 2026, 11, 2)
    assert [bar["distance"] for bar in bars[:3]] == [12.0, 6.0, 0]


async def test_with_encryption_off_on_both_sides_the_calls_still_work(session, monkeypatch):
    plain = dataclasses.replace(activity.settings, activity_encryption=False)
    monkeypatch.setattr(activity, "settings", plain)
    monkeypatch.setattr(activity_service, "settings", plain)
    add_ride(session, RIDER, small_fit(START))
    assert (await activity.activities(RIDER))["totalCount"] == 1


async def test_a_key_the_service_does_not_share_is_refused(session, monkeypatch):
    monkeypatch.setattr(
        activity, "settings", dataclasses.replace(activity.settings, activity_service_key="44" * 32)
    )
    with pytest.raises(activity.ActivityServiceError, match="could not be decrypted"):
        await activity.activities(RIDER)


async def test_an_unreachable_service_says_so(session, monkeypatch):
    away = dataclasses.replace(activity.settings, activity_service_url="http://127.0.0.1:9")
    monkeypatch.setattr(activity, "settings", away)
    with pytest.raises(activity.ActivityServiceError, match=activity.UNAVAILABLE) as failed:
        await activity.activities(RIDER)
    assert failed.value.status_code == 503
