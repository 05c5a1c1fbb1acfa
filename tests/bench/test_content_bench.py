"""Speed of a content page through the embedded content service (run with --benchmark-only); budgets
asserted (issue 15): the support page, with its article tabs, under 300 ms from a cold cache (every file
read, parsed and rendered) and under 50 ms from a warm one (each file only stat-ed)."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cycling_site.embedded.content import service as content_service
from cycling_site.embedded.content import store
from cycling_site.settings import settings
from cycling_site.wire import content as wire

URL = wire.EMBEDDED_PREFIX + "/" + wire.PAGE.format(slug="support")
KEY = {wire.API_KEY_HEADER: settings.content_service_key}


@pytest.fixture
def service() -> TestClient:
    app = FastAPI()
    content_service.install(app)
    with TestClient(app) as client:
        yield client


def _median_ms(benchmark) -> float:
    return benchmark.stats.stats.median * 1000


def _support_page(client: TestClient) -> dict:
    answer = client.get(URL, headers=KEY)
    assert answer.status_code == 200
    return answer.json()["data"]


def test_a_page_from_a_cold_cache(benchmark, service):
    page = benchmark.pedantic(
        _support_page, args=(service,), setup=store._cache.clear, rounds=20, iterations=1
    )
    assert len(page["article_categories"]) == 4
    assert _median_ms(benchmark) < 300


def test_a_page_from_a_warm_cache(benchmark, service):
    _support_page(service)
    page = benchmark(_support_page, service)
    assert page["title"] == "Support"
    assert _median_ms(benchmark) < 50
