"""Each outside service is called through one long-lived client: calls reuse it (and its connections), a
new address gets a new client, and the site's stop closes it."""

import dataclasses

import httpx
import pytest

from cycling_site.api.main import api
from cycling_site.clients import activity, content, pooled
from cycling_site.clients.in_process import InProcessClient
from cycling_site.embedded.activity import service as activity_service
from cycling_site.services import accounts

pytestmark = pytest.mark.anyio
RIDER = "11111111-1111-1111-1111-111111111111"


@pytest.fixture
def made(monkeypatch) -> list:
    """Every activity client made, in order."""
    clients: list = []
    make = activity._pool._make

    def counted():
        clients.append(make())
        return clients[-1]

    monkeypatch.setattr(activity._pool, "_make", counted)
    monkeypatch.setattr(activity._pool, "_made", None)
    return clients


@pytest.fixture(autouse=True)
def embedded(session, make_account):
    activity_service.install(api, accounts.rider_exists)
    activity.serve_embedded_from(api)
    make_account(uuid=RIDER)


async def test_calls_reuse_one_client(made):
    await activity.activities(RIDER)
    await activity.power_curve(RIDER, [])
    assert await activity.events_count(RIDER) == 0
    assert len(made) == 1 and isinstance(made[0], InProcessClient)


async def test_a_new_address_gets_a_new_client_and_the_stop_closes_it(made, monkeypatch):
    await activity.activities(RIDER)
    monkeypatch.setattr(activity, "_local_app", None)
    unreachable = dataclasses.replace(activity.settings, activity_service_url="http://127.0.0.1:9")
    monkeypatch.setattr(activity, "settings", unreachable)
    with pytest.raises(activity.ActivityServiceError, match=activity.UNAVAILABLE):
        await activity.activities(RIDER)
    assert len(made) == 2 and made[0] is not made[1] and isinstance(made[1], httpx.AsyncClient)
    await pooled.close_all()
    assert made[1].is_closed
    assert content._pool._made is None
