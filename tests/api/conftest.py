"""API tests: a client over the FastAPI app, on the fresh schema of the `session` fixture."""

import pytest
from fastapi.testclient import TestClient

from cycling_site.api import caching
from cycling_site.api.main import api
from tests.unit.conftest import (  # noqa: F401
    anyio_backend,
    human_check_payload,
    make_account,
    provider,
    use_settings,
)


@pytest.fixture
def client(session) -> TestClient:
    caching.forget_public()
    # Server errors become 500 answers, so a test sees what a caller would see.
    with TestClient(api, raise_server_exceptions=False) as test_client:
        yield test_client
