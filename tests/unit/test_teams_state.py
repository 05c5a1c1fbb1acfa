"""The team screens' own small rules: the spec's pagination window and what a card shows and links to."""

import dataclasses

from cycling_site.services.teams import TeamCard
from cycling_site.state import teams as state
from cycling_site.state.paging import page_window
from cycling_site.state.teams import card

TEAM = TeamCard(7, "Desert Falcons", "Fast on Sundays.", "AE", 8, 3, True)


def test_the_page_window_holds_two_pages_either_side():
    assert page_window(1, 1) == [1]
    assert page_window(1, 2) == [1, 2]
    assert page_window(1, 12) == [1, 2, 3]
    assert page_window(6, 12) == [4, 5, 6, 7, 8]
    assert page_window(12, 12) == [10, 11, 12]


def test_a_card_links_to_the_team_events_service_when_it_is_set(monkeypatch):
    monkeypatch.setattr(state, "settings", dataclasses.replace(state.settings, team_events_url=""))
    shown = card(TEAM, None, set())
    assert shown == {
        "id": "7",
        "name": "Desert Falcons",
        "description": "Fast on Sundays.",
        "country": "ae",
        "country_name": "United Arab Emirates",
        "members": "8",
        "link": "",
        "owner": "",
        "member": "",
    }
    monkeypatch.setattr(
        state, "settings", dataclasses.replace(state.settings, team_events_url="https://teams.example.com")
    )
    assert card(TEAM, 3, {7})["link"] == "https://teams.example.com/7"
    assert (card(TEAM, 3, {7})["owner"], card(TEAM, 3, {7})["member"]) == ("yes", "yes")
    assert (card(TEAM, 4, set())["owner"], card(TEAM, 4, set())["member"]) == ("", "")
