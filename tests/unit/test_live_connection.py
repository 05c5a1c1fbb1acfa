"""The rules of the live connection's receipts and reconnects that need no running site (the rest is in
tests/e2e/test_dropped_connection.py): what counts as a reconnect, which loads run again, and what is kept."""

import pytest

from cycling_site import live_connection as live

HYDRATE = "reflex___state____state.hydrate_and_load"
LOADS = ["guard", "page load", "page data"]


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "_actions", type(live._actions)())
    monkeypatch.setattr(live, "_page_of", type(live._page_of)())
    monkeypatch.setattr(live, "_reconnecting", set())


def test_a_reconnect_is_a_hydrate_without_the_build_hashes():
    assert live._is_reconnect({"name": HYDRATE, "payload": {}})
    assert live._is_reconnect({"name": HYDRATE})
    assert not live._is_reconnect({"name": HYDRATE, "payload": {"hashes": ["a1"]}})
    assert not live._is_reconnect({"name": "reflex___state____state.page_state.load", "payload": {}})
    assert not live._is_reconnect("hydrate_and_load")


def test_a_receipt_is_a_short_string():
    assert live._receipt_of({"receipt": "k3x.12"}) == "k3x.12"
    assert live._receipt_of({"receipt": ""}) is None
    assert live._receipt_of({"receipt": "x" * (live.RECEIPT_MAX + 1)}) is None
    assert live._receipt_of({"receipt": 12}) is None
    assert live._receipt_of(["receipt"]) is None


def test_a_reconnect_to_the_page_the_tab_loaded_runs_only_the_guard():
    assert live._loads_for_tab("tab", "/wallet", LOADS, in_hydrate_chain=False) == LOADS
    live._reconnecting.add("tab")
    # The hydrate asks first, then the load event it queued, which ends the reconnect.
    assert live._loads_for_tab("tab", "/wallet", LOADS, in_hydrate_chain=False) == ["guard"]
    assert live._loads_for_tab("tab", "/wallet", LOADS, in_hydrate_chain=True) == ["guard"]
    # A later visit of the same page loads it again.
    assert live._loads_for_tab("tab", "/wallet", LOADS, in_hydrate_chain=False) == LOADS


def test_a_reconnect_to_another_page_or_an_unknown_tab_loads_it_all():
    live._loads_for_tab("tab", "/wallet", LOADS, in_hydrate_chain=False)
    live._reconnecting.add("tab")
    assert live._loads_for_tab("tab", "/shop", LOADS, in_hydrate_chain=True) == LOADS
    assert "tab" not in live._reconnecting
    live._reconnecting.add("other tab")
    assert live._loads_for_tab("other tab", "/wallet", LOADS, in_hydrate_chain=True) == LOADS


def test_actions_are_kept_up_to_a_number_and_a_time(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(live, "KEPT", 3)
    for number in range(5):
        live._keep(live._Action("tab", f"r{number}"))
    assert [receipt for _, receipt in live._actions] == ["r2", "r3", "r4"]
    monkeypatch.setattr(live, "KEPT", 100)
    live._actions[("tab", "old")] = live._Action("tab", "old", seen_at=0.0)
    live._actions.move_to_end(("tab", "old"), last=False)
    live._keep(live._Action("tab", "new"))
    assert [receipt for _, receipt in live._actions] == ["r2", "r3", "r4", "new"]
