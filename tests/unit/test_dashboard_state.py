"""How the dashboard reads: tabs by hash (kids never reach the shop), the progress grid, merged curves,
activity rows in the spec's units."""

import pytest
from reflex.state import State

from cycling_site.state import ride_format
from cycling_site.state.dashboard import DashboardState, curve_columns, merge_curves, progress_rows, tab_for
from cycling_site.state.shop import ShopState


@pytest.mark.parametrize(
    ("fragment", "is_kid", "tab"),
    [
        ("", False, "profile"),
        ("#activities", False, "activities"),
        ("in-game-shop", False, "in-game-shop"),
        ("in-game-shop", True, "profile"),
        ("#nonsense", False, "profile"),
    ],
)
def test_tab_for(fragment, is_kid, tab):
    assert tab_for(fragment, is_kid) == tab


def _dashboard() -> DashboardState:
    root = State(_reflex_internal_init=True)
    return root.get_substate(DashboardState.get_full_name().split(".")[1:])


def _loads(events: list) -> list[str]:
    return [event.fn.__name__ for event in events]


def test_the_ride_list_and_the_shop_load_when_their_tab_opens_not_before():
    dashboard = _dashboard()
    assert _loads(dashboard._opened("activities")) == [DashboardState.reload_activities.fn.__name__]
    assert dashboard._opened("#activities") == []
    assert _loads(dashboard._opened("in-game-shop")) == [ShopState.load.fn.__name__]
    assert dashboard._opened("profile") == []


def test_progress_rows_show_hours_km_and_metres():
    figures = {
        "distance": 1760.24,
        "timeSpend": 3725,
        "elevation": 14721,
        "longestRide": 89.4,
        "races": 5,
        "allRides": 50,
    }
    empty = {"distance": 0, "timeSpend": 0, "elevation": 0, "longestRide": 0, "races": 0, "allRides": 0}
    rows = progress_rows({"overall": figures, "year": figures, "month": empty, "week": empty})
    assert [row["label"] for row in rows] == [
        "Time spent",
        "All rides",
        "Distance",
        "Elevation",
        "Longest ride",
        "Race",
    ]
    assert [row["overall"] for row in rows] == ["62.1 h", "50", "1,760.2 KM", "14,721 M", "89.4 KM", "5"]
    assert rows[0]["week"] == "0.0 h"


def test_compared_curves_are_merged_by_duration():
    a = {"seconds": [1, 2, 5, 300], "power": [500, 480, 400, 250]}
    b = {"seconds": [1, 2, 5, 120], "power": [600, 550, 450, 300]}
    assert merge_curves([a, b]) == {
        "seconds": [1, 2, 5, 120, 300],
        "ride_a": [500, 480, 400, None, 250],
        "ride_b": [600, 550, 450, 300, None],
    }


def test_the_overall_curve_travels_as_three_columns():
    graph = {"seconds": [1, 2], "power": [500, 480], "power_weight": [7.1, 6.9], "heart_rate": [150, 151]}
    assert curve_columns(graph) == {"seconds": [1, 2], "power": [500, 480], "power_weight": [7.1, 6.9]}


def test_an_activity_row_in_the_sites_zone_and_units():
    row = ride_format.activity_row(
        {
            "activityFileId": "f1",
            "date": "2026-11-20T21:30:00+00:00",
            "title": "Evening ride",
            "routeName": "Corniche Flat",
            "type": "ride",
            "sportType": "cycling",
            "distance": 26.43,
            "elevation": 0,
            "watt": None,
            "wattPerKg": 2.94,
            "heartrate": 148,
            "rideDuration": 3725,
        }
    )
    assert row["date"] == "21/11/2026"
    assert (row["distance"], row["elevation"], row["watt"], row["wkg"]) == ("26.4 KM", "0 M", "-", "2.9 w/kg")
    assert (row["heart"], row["time"]) == ("148 bpm", "1:02:05")
