"""The route table: which route serves a path and which paths need a signed-in rider."""

import re

import pytest

from cycling_site.messages.site import PAGE_DESCRIPTIONS
from cycling_site.pages import BUILT
from cycling_site.routes import ROUTES, requires_login, route_for
from cycling_site.settings import PROJECT_ROOT, SETTING_NAMES


@pytest.mark.parametrize(
    ("path", "name", "login_needed"),
    [
        ("/user/activities", "new_activities", True),
        ("/user/activities?tab=1#profile", "new_activities", True),
        ("/user/profile", "profile", True),
        ("/event/42", "event", True),
        ("/event/42/", "event", True),
        ("/event/detail/42", "event_detail", False),
        ("/event/42/thank-you", "EventThankYou", True),
        ("/oauth/strava", "oauth", False),
        ("/oauth/strava/web", "oauth", False),
        ("/sunday-race-club", "sunday_race_club", False),
        ("/zwift-ruleset", "ruleset", False),
        ("/", "events", False),
        ("/auth/login", "login", False),
        ("/wallet/withdrawal-request", "withdrawal", True),
        ("/race-results", "results", True),
        ("/article/hello-world", "article", False),
    ],
)
def test_route_for_and_login_requirement(path, name, login_needed):
    route = route_for(path)
    assert route is not None
    assert route.name == name
    assert requires_login(path) is login_needed


def test_paths_no_route_serves_need_no_login():
    assert route_for("/no/such/page/here") is None
    assert requires_login("/no/such/page/here") is False


def test_route_names_are_unique():
    names = [route.name for route in ROUTES]
    assert len(names) == len(set(names))


def test_every_route_has_its_screen():
    missing = [route.name for route in ROUTES if not callable(BUILT.get(route.name, (None,))[0])]
    assert missing == []
    assert sorted(set(BUILT) - {route.name for route in ROUTES}) == []


def test_every_route_has_a_search_description_of_a_search_results_length():
    for route in ROUTES:
        description = PAGE_DESCRIPTIONS[route.name].format(site="RideArena")
        assert 50 <= len(description) <= 160, route.name
    assert set(PAGE_DESCRIPTIONS) == {route.name for route in ROUTES}


def test_route_paths_are_unique():
    paths = [route.path for route in ROUTES]
    assert len(paths) == len(set(paths))


def test_every_setting_is_documented_in_env_example():
    documented = set(re.findall(r"^([A-Z_]+)=", (PROJECT_ROOT / ".env.example").read_text(), re.MULTILINE))
    assert SETTING_NAMES
    assert sorted(set(SETTING_NAMES) - documented) == []
