"""The REST API against its own OpenAPI: schemathesis runs every operation with every check.

The schema comes from the app itself (/api/openapi.json), and the requests go through the layers the site
puts around the API: the CORS middleware (as Reflex adds it) and the site middleware (cross-site refusal,
body cap, security headers). Each operation runs on a fresh schema holding a rider account, whose bearer
token the authenticated operations get, and the demo events. The run is bounded and deterministic: a few
examples per operation, no deadline, no example database, derandomized generation.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from reflex.app import App
from schemathesis.config import SchemathesisConfig
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.types import ASGIApp

from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.services import tokens
from cycling_site.services.demo_events import demo_events
from tests.unit.conftest import make_account  # noqa: F401

MAX_EXAMPLES = 10
RIDER_UUID = "0b6f7a52-3c1e-4d4b-9a55-8f2d6c1e7a10"
# Schema-valid input that the rules refuse answers 400 with messages per field, as the spec's error
# catalogue has it (spec 2 section 8): a code that is not valid, a failed human check, wrong credentials, a
# date of birth out of range. JSON Schema cannot say which codes exist or which dates are in range, so for
# this API 400 is an accepted answer to schema-valid data too; every other expectation of the check is kept.
POSITIVE_DATA_ACCEPTED = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]


def site_stack() -> ASGIApp:
    """The API as the site serves it: Reflex's CORS middleware (as `App._add_cors` configures it) around the
    site middleware around the API."""
    holder = Starlette()
    App._add_cors(holder)
    cors, args, kwargs = holder.user_middleware[0]
    return cors(SiteMiddleware(api), *args, **kwargs)


CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True, "database": "none"},
        "checks": {"positive_data_acceptance": {"expected-statuses": POSITIVE_DATA_ACCEPTED}},
    }
)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", site_stack(), config=CONFIG)


@schema.auth(refresh_interval=None)
class RiderSession:
    """A fresh bearer token of the rider for every case. Schemathesis makes the coverage phase's cases while
    it collects the tests, before any database exists: the token names the rider by a fixed uuid, which the
    account seeded for each operation has."""

    def get(self, _case, _ctx) -> str:
        return tokens.issue_session_token(Account(uuid=RIDER_UUID), True).token

    def set(self, case, token: str, _ctx) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@pytest.fixture
def world(session: Session, make_account):  # noqa: F811
    """What the operations look up: the signed-in rider and the demo events (ids from 1)."""
    make_account(uuid=RIDER_UUID)
    session.add_all(demo_events(utcnow()))
    session.commit()


@schema.parametrize()
# One world per operation, shared by its cases, is what `world` is for.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_operation_keeps_its_contract(case, world):
    # No `checks=`: every check schemathesis has (all are enabled in CONFIG).
    case.call_and_validate()
