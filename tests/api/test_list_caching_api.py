"""Public event lists under load: an ETag and Cache-Control on every answer, 304 for a caller that holds
the answer already, one visitors' answer reused for a few seconds, a rider's own answer kept private; and
a database with no free connection answers 503 quickly instead of making the caller wait."""

import dataclasses
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from cycling_site import db
from cycling_site.api import caching
from cycling_site.messages import events as msg
from cycling_site.messages import site as site_msg
from cycling_site.models.events import Event
from cycling_site.services.demo_events import demo_events
from cycling_site.settings import settings
from tests.api.auth_support import bearer

LISTS = ["/api/events", "/api/events/upcoming"]


@pytest.fixture
def seeded(session):
    found = demo_events(datetime.now(UTC))
    session.add_all(found)
    session.commit()
    return found


@pytest.mark.parametrize("path", LISTS)
def test_a_caller_holding_the_answer_gets_304_without_a_body(client, seeded, path):
    first = client.get(path)
    assert first.status_code == 200 and first.json()["status"] is True
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == caching.PUBLIC
    again = client.get(path, headers={"If-None-Match": etag})
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", etag)
    other = client.get(path, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.json() == first.json()


def test_visitors_share_one_answer_for_a_few_seconds(client, session, seeded, monkeypatch):
    now = [time.monotonic()]
    monkeypatch.setattr(caching.time, "monotonic", lambda: now[0])
    before = client.get("/api/events")
    event = session.get(Event, seeded[0].id)
    event.name = "Renamed Classic"
    session.add(event)
    session.commit()
    assert client.get("/api/events").content == before.content
    now[0] += caching.PUBLIC_SECONDS
    names = [row["name"] for row in client.get("/api/events").json()["data"]]
    assert "Renamed Classic" in names


def test_a_riders_answer_is_private_and_their_own(client, seeded, make_account):
    rider = make_account(gender=1)
    visitor = client.get("/api/events").json()["data"]
    answer = client.get("/api/events", headers=bearer(rider))
    assert answer.headers["cache-control"] == caching.PRIVATE
    assert "Authorization" in answer.headers["vary"]
    mine = answer.json()["data"]
    assert {row["state_message"] for row in visitor} >= {msg.LOGGED_OUT}
    assert msg.LOGGED_OUT not in {row["state_message"] for row in mine}
    again = client.get("/api/events", headers={**bearer(rider), "If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304


def test_no_free_connection_answers_503_quickly(client, seeded, make_account, monkeypatch):
    rider = make_account()
    small = dataclasses.replace(settings, db_pool_size=1, db_max_overflow=0, db_pool_timeout=0.2)
    monkeypatch.setattr(db, "settings", small)
    engine = db._make_engine(settings.db_url)
    monkeypatch.setattr(db, "engine", engine)
    try:
        with engine.connect() as held:
            held.execute(text("SELECT 1"))
            started = time.monotonic()
            answer = client.get("/api/events", headers=bearer(rider))
            assert time.monotonic() - started < 2
    finally:
        engine.dispose()
    assert answer.status_code == 503
    assert answer.json() == {"status": False, "message": site_msg.DATABASE_BUSY}
    assert answer.headers["retry-after"] == "2"
