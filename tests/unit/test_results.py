"""Stored results: demo results for past events, standings by day and overall, and the frame's address."""

import dataclasses
from datetime import timedelta

import pytest
from sqlmodel import delete, select

from cycling_site.clients import results as results_client
from cycling_site.embedded.results import standings as results
from cycling_site.embedded.results.models import Race, ResultLine
from cycling_site.embedded.results.standings import race_time, seed_results, standings
from cycling_site.models import Event
from cycling_site.models.common import utcnow
from cycling_site.seed import race_entries
from cycling_site.state.results import results_path
from cycling_site.wire.ids import row_id
from tests.unit.conftest import count

SERIES = {"templateType": "SERIES"}


def _event(session, name: str, days_from_now: float, **fields) -> Event:
    starts_at = utcnow() + timedelta(days=days_from_now)
    values = {"distance_km": 32.4, "elevation_m": 410, **fields}
    event = Event(name=name, starts_at=starts_at, closes_at=starts_at - timedelta(hours=2), **values)
    session.add(event)
    session.commit()
    return event


@pytest.fixture
def events(session) -> dict[str, Event]:
    return {
        "race": _event(session, "Desert Crit", -13),
        "series": _event(session, "Sunday Race Club", -6, prize_structure=SERIES),
        "future": _event(session, "Hatta Hills", 5),
    }


def _rows(session, event: Event, day: int) -> list[ResultLine]:
    query = select(ResultLine).where(ResultLine.event_id == event.id, ResultLine.day_id == day)
    return list(session.exec(query.order_by(ResultLine.position)))


def test_results_are_seeded_for_started_events_only_and_once(session, events):
    written = seed_results(session, race_entries(list(events.values())))
    assert written == count(session, ResultLine) > 0
    assert _rows(session, events["future"], 1) == []
    assert seed_results(session, race_entries(list(events.values()))) == 0
    assert count(session, ResultLine) == written


def test_a_series_is_raced_over_two_days_and_a_race_over_one(session, events):
    seed_results(session, race_entries(list(events.values())))
    race_day_1 = _rows(session, events["race"], 1)
    assert 20 <= len(race_day_1) <= 40
    assert _rows(session, events["race"], 2) == []
    day_1, day_2 = _rows(session, events["series"], 1), _rows(session, events["series"], 2)
    assert 20 <= len(day_1) <= 40
    # A few riders do not start the second day; nobody new does.
    assert 1 <= len(day_1) - len(day_2) <= 3
    assert {row.rider_name for row in day_2} < {row.rider_name for row in day_1}


def test_each_day_reads_like_a_race(session, events):
    seed_results(session, race_entries(list(events.values())))
    for event in events.values():
        for day in (1, 2):
            rows = _rows(session, event, day)
            if not rows:
                continue
            assert [row.position for row in rows] == list(range(1, len(rows) + 1))
            assert len({row.rider_name for row in rows}) == len(rows)
            assert {row.category for row in rows} <= {1, 2, 3, 4}
            times = [row.time_s for row in rows]
            assert times == sorted(times)
            # 32.4 km: the winner averages a racing speed, the last rider still rides.
            assert 38 <= 32.4 / (times[0] / 3600) <= 50
            assert 20 <= 32.4 / (times[-1] / 3600) < 38
            for category in range(1, 5):
                wkg = [row.watts_per_kg for row in rows if row.category == category]
                assert wkg == sorted(wkg, reverse=True), f"category {category} out of order"
                assert all(1.8 <= value <= 5.6 for value in wkg)


def test_the_same_event_always_gets_the_same_results(session, events):
    seed_results(session, race_entries([events["race"]]))
    first = [(row.rider_name, row.time_s) for row in _rows(session, events["race"], 1)]
    session.exec(delete(ResultLine))
    session.exec(delete(Race))
    session.commit()
    seed_results(session, race_entries([events["race"]]))
    assert [(row.rider_name, row.time_s) for row in _rows(session, events["race"], 1)] == first


def test_events_with_results_newest_first(session, events):
    seed_results(session, race_entries(list(events.values())))
    listed = results.events_with_results(session)
    assert [(event.name, event.days, event.series) for event in listed] == [
        ("Sunday Race Club", [1, 2], True),
        ("Desert Crit", [1], False),
    ]
    assert listed[0].riders == len(_rows(session, events["series"], 1))
    assert results.result_event(session, events["race"].id) == listed[1]
    assert results.result_event(session, events["future"].id) is None
    assert results.result_event(session, 999_999) is None


def test_standings_of_a_day_are_the_stored_results(session, events):
    seed_results(session, race_entries(list(events.values())))
    race = events["race"]
    stored = _rows(session, race, 1)
    for day in (None, 1):
        lines = standings(session, race.id, day)
        assert [(line.position, line.rider_name, line.time_s) for line in lines] == [
            (row.position, row.rider_name, row.time_s) for row in stored
        ]
    assert standings(session, race.id, 2) == []
    assert standings(session, events["future"].id) == []


def test_overall_standings_of_a_series_add_up_the_days(session, events):
    seed_results(session, race_entries(list(events.values())))
    series = events["series"]
    day_1 = {row.rider_name: row for row in _rows(session, series, 1)}
    day_2 = {row.rider_name: row for row in _rows(session, series, 2)}
    overall = standings(session, series.id)
    # Only riders who finished both days are classified.
    assert {line.rider_name for line in overall} == set(day_2)
    assert [line.position for line in overall] == list(range(1, len(overall) + 1))
    assert [line.time_s for line in overall] == sorted(line.time_s for line in overall)
    leader = overall[0]
    first, second = day_1[leader.rider_name], day_2[leader.rider_name]
    assert leader.time_s == pytest.approx(first.time_s + second.time_s, abs=0.1)
    weighted = (first.watts_per_kg * first.time_s + second.watts_per_kg * second.time_s) / leader.time_s
    assert leader.watts_per_kg == pytest.approx(weighted, abs=0.01)
    assert leader.category == first.category


def test_an_event_with_no_distance_gets_a_default_course(session):
    event = _event(session, "Mystery Ride", -1, distance_km=0, elevation_m=0)
    seed_results(session, race_entries([event]))
    rows = _rows(session, event, 1)
    assert rows and all(row.time_s > 0 for row in rows)


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("12", 12),
        (" 7 ", 7),
        ("123456789", 123456789),
        ("2147483647", 2147483647),
        ("2147483648", None),
        ("00000000012", None),
        ("\u00b2", None),
        (True, None),
        (5, 5),
        ("0", None),
        ("-1", None),
        ("1.5", None),
        ("abc", None),
        ("１２", None),
        ("", None),
        (None, None),
    ],
)
def test_ids_come_only_as_positive_digits(value, parsed):
    assert row_id(value) == parsed


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0, "0:00:00"), (59.6, "0:01:00"), (3725.4, "1:02:05"), (36000, "10:00:00")],
)
def test_race_time_reads_h_mm_ss(seconds, shown):
    assert race_time(seconds) == shown


def test_the_frame_points_at_the_embedded_service_with_numeric_ids_only():
    assert results_client.frame_url() == "/results-service/"
    assert results_client.frame_url("5", "2") == "/results-service/?eventId=5&dayId=2"
    assert results_client.frame_url("5", "x") == "/results-service/?eventId=5"
    assert results_client.frame_url("<script>", "2") == "/results-service/"
    assert results_client.frame_origin() == ""


def test_the_frame_points_at_a_configured_results_service(monkeypatch):
    configured = dataclasses.replace(
        results_client.settings, results_service_url="https://results.example.com/embed"
    )
    monkeypatch.setattr(results_client, "settings", configured)
    assert results_client.frame_url("5") == "https://results.example.com/embed?eventId=5"
    assert results_client.frame_url() == "https://results.example.com/embed"
    with_query = dataclasses.replace(configured, results_service_url="https://results.example.com/?lang=en")
    monkeypatch.setattr(results_client, "settings", with_query)
    assert results_client.frame_url("5", "1") == "https://results.example.com/?lang=en&eventId=5&dayId=1"
    assert results_client.frame_origin() == "https://results.example.com"


@pytest.mark.parametrize(
    ("message", "path"),
    [
        (("events", "", ""), "/race-results"),
        (("events", "5", "1"), "/race-results"),
        (("series", "5", ""), "/race-results?eventId=5"),
        (("single", "5", "2"), "/race-results?eventId=5&dayId=2"),
        (("single", "5", "two"), "/race-results?eventId=5"),
        (("single", "five", "2"), "/race-results"),
        (("other", "5", "2"), "/race-results"),
    ],
)
def test_a_message_from_the_frame_leads_to_the_results_route(message, path):
    assert results_path(*message) == path
