"""The embedded results service as the results page's frame loads it: events, days, standings, bad ids,
and the headers that let only our own pages frame it."""

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware
from cycling_site.embedded.results import service as results_service
from cycling_site.embedded.results import texts as msg
from cycling_site.embedded.results.standings import race_time, seed_results, standings
from cycling_site.models import Event
from cycling_site.models.common import utcnow
from cycling_site.seed import race_entries

results_service.install(api)
BASE = "/results-service/"


class Page(HTMLParser):
    """What a reader of the page sees: its text, its links (attributes and text) and table rows."""

    def __init__(self, markup: str):
        super().__init__()
        self.text, self.links, self.rows = [], [], []
        self._link: dict | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._link = {**dict(attrs), "text": ""}
        elif tag == "tr":
            self._row = []
        elif tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "a" and self._link is not None:
            self._link["text"] = " ".join(self._link["text"].split())
            self.links.append(self._link)
            self._link = None
        elif tag == "td" and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._link is not None:
            self._link["text"] += data
        if self._cell is not None:
            self._cell.append(data)

    def links_of(self, kind: str) -> list[dict]:
        return [link for link in self.links if link.get("data-type") == kind]


@pytest.fixture
def site(session):
    # Through the site's middleware, which sets the frame headers.
    with TestClient(SiteMiddleware(api), raise_server_exceptions=False) as client:
        yield client


def _event(session, name: str, days_from_now: float, **fields) -> Event:
    starts_at = utcnow() + timedelta(days=days_from_now)
    event = Event(name=name, starts_at=starts_at, closes_at=starts_at - timedelta(hours=2), **fields)
    session.add(event)
    session.commit()
    return event


@pytest.fixture
def raced(session) -> dict[str, Event]:
    events = {
        "race": _event(session, "Desert Crit", -13, distance_km=24, elevation_m=35),
        "series": _event(
            session, "Sunday Race Club", -6, distance_km=32.4, prize_structure={"templateType": "SERIES"}
        ),
    }
    seed_results(session, race_entries(list(events.values())))
    return events


def _page(site, query: str = "") -> Page:
    response = site.get(BASE + query, headers={"Accept": "text/html"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    return Page(response.text)


def test_the_events_list_shows_events_with_results_newest_first(site, raced):
    page = _page(site)
    race, series = raced["race"], raced["series"]
    events = [link for link in page.links if link.get("class") == "event"]
    assert len(events) == 2
    assert "Sunday Race Club" in events[0]["text"] and "2 days" in events[0]["text"]
    assert "Desert Crit" in events[1]["text"] and "1 day" in events[1]["text"]
    # A series opens on its overall standings, a one-day race on its day.
    assert (events[0]["data-type"], events[0]["data-event-id"]) == ("series", str(series.id))
    assert "data-day-id" not in events[0]
    assert (events[1]["data-type"], events[1]["data-event-id"], events[1]["data-day-id"]) == (
        "single",
        str(race.id),
        "1",
    )
    # Opened on its own, the same links work as ordinary links.
    assert events[1]["href"] == f"?eventId={race.id}&dayId=1"


def test_a_future_event_is_not_listed(site, session, raced):
    _event(session, "Next Week", 7)
    assert "Next Week" not in "".join(_page(site).text)


def test_with_no_results_the_list_says_so(site):
    page = _page(site)
    assert msg.NO_EVENTS in page.text
    assert page.links_of("series") == page.links_of("single") == []


def test_a_one_day_race_shows_its_standings(site, session, raced):
    race = raced["race"]
    expected = standings(session, race.id, 1)
    for query in (f"?eventId={race.id}", f"?eventId={race.id}&dayId=1"):
        page = _page(site, query)
        assert "Desert Crit" in page.text
        assert page.links_of("single") == []  # no day switcher for one day
        assert [link["id"] for link in page.links_of("events")] == ["back-to-events"]
        winner = expected[0]
        assert page.rows[0] == [
            "1",
            winner.rider_name,
            str(winner.category),
            race_time(winner.time_s),
            f"{winner.watts_per_kg:.2f}",
        ]
        assert len(page.rows) == len(expected)


def test_a_series_switches_between_overall_and_its_days(site, session, raced):
    series = raced["series"]
    overall = _page(site, f"?eventId={series.id}")
    tabs = [
        (link["text"], link["data-type"], link.get("data-day-id"))
        for link in overall.links
        if "data-type" in link
    ]
    assert tabs[1:] == [("Overall", "series", None), ("Day 1", "single", "1"), ("Day 2", "single", "2")]
    current = [link["text"] for link in overall.links if link.get("aria-current") == "page"]
    assert current == ["Overall"]
    assert len(overall.rows) == len(standings(session, series.id))

    day_2 = _page(site, f"?eventId={series.id}&dayId=2")
    assert [link["text"] for link in day_2.links if link.get("aria-current") == "page"] == ["Day 2"]
    assert [row[1] for row in day_2.rows] == [line.rider_name for line in standings(session, series.id, 2)]


@pytest.mark.parametrize(
    "query",
    [
        "?eventId=abc",
        "?eventId=0",
        "?eventId=-3",
        "?eventId=999999",
        "?eventId=99999999999999999999999",
        "?eventId=1%27%20OR%201=1",
        "?eventId={race}&dayId=2",
        "?eventId={race}&dayId=abc",
        "?eventId={race}&dayId=0",
    ],
)
def test_unknown_or_malformed_ids_say_there_are_no_results(site, raced, query):
    page = _page(site, query.format(race=raced["race"].id))
    assert msg.NO_RESULTS in page.text
    assert page.rows == []
    assert page.links_of("events")[0]["id"] == "back-to-events"


def test_an_event_with_no_results_yet_says_so(site, session):
    upcoming = _event(session, "Next Week", 7)
    assert msg.NO_RESULTS in _page(site, f"?eventId={upcoming.id}").text


def test_names_are_shown_as_text(site, session):
    event = _event(session, "<script>alert(1)</script> Crit", -2)
    seed_results(session, race_entries([event]))
    response = site.get(f"{BASE}?eventId={event.id}")
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Crit" in response.text


def test_only_our_own_pages_may_frame_the_service(site):
    for path in ("/results-service/", "/results-service", "/results-service/?eventId=abc"):
        response = site.get(path, headers={"Accept": "text/html"})
        assert response.status_code == 200
        assert response.headers["x-frame-options"] == "SAMEORIGIN"
        policy = response.headers["content-security-policy"]
        assert "frame-ancestors 'self'" in policy and "frame-ancestors 'none'" not in policy
        # The service's own inline script runs: the site's page script list does not apply to it.
        assert "script-src" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
    # Everything else still refuses every frame.
    other = site.get("/api/auth/profile")
    assert other.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in other.headers["content-security-policy"]
    lookalike = site.get("/results-service-old", headers={"Accept": "text/html"}, follow_redirects=False)
    assert lookalike.headers["x-frame-options"] == "DENY"


def test_the_page_posts_to_its_parent_and_carries_no_frame_guard(site):
    markup = site.get(BASE).text
    assert "window.parent.postMessage(message, window.location.origin)" in markup
    assert "iframe-warning" not in markup
