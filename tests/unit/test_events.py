"""Event rules: the rider's status message, the Register rule, gender, capacity, lists, money."""

from datetime import UTC, datetime, timedelta

import pytest

from cycling_site.messages import events as msg
from cycling_site.models.events import Event, Registration
from cycling_site.services import events
from cycling_site.services.demo_events import WINNERS, demo_events, race_prizes, series_prizes

NOW = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)


def _event(**fields) -> Event:
    values = {
        "name": "Race",
        "starts_at": NOW + timedelta(days=3),
        "closes_at": NOW + timedelta(days=2),
        **fields,
    }
    return Event(**values)


def _registration(status: str) -> Registration:
    return Registration(
        event_id=1, account_id=1, status=status, first_name="a", last_name="b", email="e", gender=0
    )


@pytest.mark.parametrize(
    ("fields", "status", "message", "can_register"),
    [
        ({}, "pending", msg.PENDING, False),
        ({}, "approved", msg.APPROVED, False),
        ({}, "declined", msg.DECLINED, True),
        ({"accept": False}, "", msg.CLOSED, False),
        ({"closes_at": NOW - timedelta(hours=1)}, "", msg.CLOSED, False),
        ({"capacity": 10, "booked": 10}, "", msg.ROOM_FULL, False),
        ({"gender": 1}, "", msg.WOMEN_ONLY, False),
        ({"gender": 0}, "", "Registration closes", True),
        ({"gender": 2}, "", "Registration closes", True),
    ],
)
def test_the_riders_state_on_an_event(make_account, fields, status, message, can_register):
    rider = make_account(gender=0)
    state = events.rider_state(_event(**fields), rider, _registration(status) if status else None, NOW)
    assert state.message.startswith(message)
    assert state.can_register is can_register
    assert state.rejoin is (status == "declined")


def test_a_women_only_event_for_a_man_and_a_men_only_event_for_a_woman(make_account):
    woman = make_account(gender=1)
    assert events.rider_state(_event(gender=0), woman, None, NOW).message == msg.MEN_ONLY
    assert events.rider_state(_event(gender=1), woman, None, NOW).can_register is True


def test_a_visitor_is_asked_to_log_in():
    state = events.rider_state(_event(), None, None, NOW)
    assert (state.message, state.can_register) == (msg.LOGGED_OUT, False)


def test_the_closing_time_is_shown_in_gmt_plus_4(make_account):
    event = _event(closes_at=datetime(2026, 11, 29, 15, 0, tzinfo=UTC))
    state = events.rider_state(event, make_account(), None, NOW)
    assert state.message == "Registration closes Sun 29 Nov 2026, 19:00 GMT+4"


def test_summary_times_are_gmt_plus_4_and_money_aed_with_usd():
    event = _event(starts_at=datetime(2026, 11, 29, 15, 30, tzinfo=UTC), prize_money=1_000_050)
    event.prize_structure = {"conversionRate": 0.2723}
    summary = events.event_summary(event)
    assert (summary["date"], summary["time"]) == ("2026-11-29", "19:30")
    assert summary["prizeMoney"] == {"currency": "AED", "amount": 10000.5, "usd": 2723.14}


def test_upcoming_groups_featured_and_the_rest_soonest_first(session):
    session.add_all(demo_events(NOW))
    session.commit()
    groups = events.upcoming(session, NOW)
    assert [event.name for event in groups["featured"]] == [
        "Sunday Race Club - Round 10",
        "AlUla Desert Classic",
    ]
    starts = [event.starts_at for event in groups["all"]]
    assert starts == sorted(starts) and len(groups["all"]) == 9
    assert [event.name for event in events.past(session, NOW)] == [
        "Sunday Race Club - Round 9",
        "Desert Crit Series - Race 2",
    ]


def test_upcoming_page_reads_one_page_of_the_others_and_all_featured(session):
    session.add_all(demo_events(NOW))
    session.add_all(_event(name=f"Extra {n:02d}", starts_at=NOW + timedelta(days=300 + n)) for n in range(12))
    session.commit()
    everything = [event.name for event in events.upcoming(session, NOW)["all"]]
    first = events.upcoming_page(session, 1, 10, NOW)
    assert [event.name for event in first.featured] == ["Sunday Race Club - Round 10", "AlUla Desert Classic"]
    assert [event.name for event in first.others] == everything[:10]
    assert (first.page, first.last_page) == (1, 3)
    last = events.upcoming_page(session, 3, 10, NOW)
    assert [event.name for event in last.others] == everything[20:] == ["Extra 11"]
    assert events.upcoming_page(session, 99, 10, NOW).page == 3
    assert events.upcoming_page(session, -1, 10, NOW).others == first.others


def test_upcoming_page_with_no_events_is_one_empty_page(session):
    empty = events.upcoming_page(session, 2, 10, NOW)
    assert (empty.featured, empty.others, empty.page, empty.last_page) == ([], [], 1, 1)


def test_the_demo_events_cover_every_case():
    found = demo_events(NOW)
    flags = ("dob_required", "identification", "device", "team", "otp")
    for flag in flags:
        assert any(getattr(e, flag) and sum(getattr(e, f) for f in flags) == 1 for e in found), flag
    assert any(all(getattr(e, f) for f in flags) for e in found)
    assert {e.gender for e in found} == {0, 1, 2}
    assert {e.prize_structure["templateType"] for e in found} == {"SERIES", "RACE"}
    assert any(e.booked >= e.capacity for e in found) and any(not e.accept for e in found)
    assert any(e.winners and e.starts_at < NOW for e in found)


@pytest.mark.parametrize("bad", ["abc", "", "-1", None, True, 1.5])
def test_an_unknown_event_is_not_found(session, bad):
    with pytest.raises(events.EventNotFound):
        events.get_event(session, bad)
    with pytest.raises(events.EventNotFound):
        events.get_event(session, 999)


def test_series_prize_tables_have_overall_and_day_groups():
    tables = events.prize_tables(series_prizes())
    titles = [table["title"] for table in tables]
    assert titles[:4] == [f"Overall · Category {n}" for n in range(1, 5)]
    assert titles[4:] == [f"Day {day} · Category {n}" for day in (1, 2) for n in range(1, 5)]
    assert tables[0]["headings"] == ["Overall position", "Prize"]
    assert tables[4]["headings"] == ["Day position", "Prize"]
    assert tables[0]["rows"][0] == {"position": "1", "aed": "AED 5,000.00", "usd": "USD 1,361.50"}
    race = events.prize_tables(race_prizes())
    assert [table["title"] for table in race] == ["Category 1", "Category 2"]
    assert race[0]["headings"] == ["Position", "Prize"] and len(race[0]["rows"]) == 6


def test_the_podium_is_the_top_three_then_the_rest():
    top, rest = events.podium(list(reversed(WINNERS)), 0.2723)
    assert [w["position"] for w in top] == ["1", "2", "3"] and [w["position"] for w in rest] == ["4", "5"]
    assert top[0]["prize"] == "AED 5,000.00"


@pytest.mark.parametrize(
    ("name", "variant", "event_type", "text"),
    [
        ("Category 1", 0, "all", "CAT-1: riders above 4.0 w/kg"),
        ("Category 2", 0, "featured", "CAT-2: 1.0 to 3.9 w/kg"),
        ("Category 1", 1, "all", "CAT-1: riders above 3.3 w/kg"),
        ("Category 2", 1, "all", "CAT-2: 1.0 to 3.2 w/kg"),
        ("Category 1", 2, "all", "CAT-1: riders above 4.0 w/kg"),
        ("Category 2", 7, "all", "CAT-2: 1.0 to 3.9 w/kg"),
        ("Category 3", 0, "all", ""),
        ("Category 2", 1, "open", "Open: all categories"),
    ],
)
def test_category_descriptions_follow_the_events_variant(name, variant, event_type, text):
    assert events.category_description(name, variant, event_type) == text
