"""The REST API against its own OpenAPI: schemathesis runs every operation with every check.

The schema comes from the app itself (/api/openapi.json), and the requests go through the layers the site
puts around the API: the CORS middleware (as Reflex adds it) and the site middleware (cross-site refusal,
body cap, security headers). Each operation runs on a fresh schema holding a rider account, whose bearer
token the authenticated operations get, and the demo events. The run is bounded and deterministic: a few
examples per operation, no deadline, no example database, derandomized generation.

Schema-valid data must pass every rule the schema can say (lengths, patterns, formats, ranges, enums, required
fields): schemathesis's positive-data check (ST202) runs with 400 NOT among the accepted statuses. What no
schema can say stays a 400 with its spec message: a code that does not exist, a failed human check, a state
of the account. `positive_data_acceptance_with_business_rules` stands in for ST202: it lets a 400 to
schema-valid data through only when every message of the answer is in BUSINESS_RULE_REFUSALS, the reviewed
list below (each with why a schema cannot say it), and hands every other answer to ST202 itself, so a 400 for
a length, a pattern or a missing field the schema did not document fails the run.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from reflex.app import App
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.types import ASGIApp

from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware
from cycling_site.messages import accounts as accounts_msg
from cycling_site.messages import connections as connections_msg
from cycling_site.messages import contact as contact_msg
from cycling_site.messages import pre_verification as pre_verification_msg
from cycling_site.messages import registration as registration_msg
from cycling_site.messages import shop as shop_msg
from cycling_site.messages import teams as teams_msg
from cycling_site.messages import third_party_import as import_msg
from cycling_site.messages import wallet as wallet_msg
from cycling_site.messages import weigh_ins as weigh_ins_msg
from cycling_site.models import Account
from cycling_site.models.common import utcnow
from cycling_site.services import tokens
from cycling_site.services.demo_events import demo_events
from cycling_site.services.validation import normalize_email
from tests.unit.conftest import make_account  # noqa: F401

MAX_EXAMPLES = 10
RIDER_UUID = "0b6f7a52-3c1e-4d4b-9a55-8f2d6c1e7a10"
# 400 is not here: see BUSINESS_RULE_REFUSALS. 404 (an id that does not exist), 409 and 429 are answers a
# schema cannot rule out either.
POSITIVE_DATA_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
# The refusals of schema-valid data no JSON Schema can express, each a spec message (cycling_site/messages).
BUSINESS_RULE_REFUSALS = {
    # Codes, keys and links: whether one exists, is unused and in time is in the database.
    accounts_msg.CODE_INVALID,
    accounts_msg.CONSENT_REQUEST_EXPIRED,
    accounts_msg.OAUTH_ERROR,  # the app's callback state must be the one this site issued
    registration_msg.OTP_SEND_FIRST,
    registration_msg.DOWNLOAD_FAILED,  # the file key must be one of the rider's files
    shop_msg.UNKNOWN_BUNDLE,  # the catalogue is data the organizer edits, not a fixed enum
    shop_msg.WEBHOOK_REFUSED,  # a signature over the body with the provider's secret
    # A failed human check: the proof of work must solve a challenge this site issued.
    accounts_msg.HUMAN_CHECK_REQUIRED,
    # Credentials and the account's own state.
    accounts_msg.EMAIL_INVALID,  # sign-in answers it for an address that signs nobody in
    accounts_msg.INVALID_EMAIL_PROVIDED,  # a reset asked for an address no account has
    registration_msg.OTP_WRONG,  # not the code sent to that phone
    connections_msg.UNKNOWN_NETWORK,  # a staff-only app, offered by the account's role
    teams_msg.NAME_TAKEN,  # another team's name
    pre_verification_msg.ALREADY_SUBMITTED,  # one submission at a time
    accounts_msg.CURRENT_PASSWORD_WRONG,
    accounts_msg.PASSWORD_MISMATCH,  # JSON Schema cannot say that two fields are equal
    accounts_msg.AVATAR_NONE,
    connections_msg.NOT_CONNECTED,
    import_msg.ALREADY_WAITING,
    import_msg.NOTHING_TO_SEE,
    *(weigh_ins_msg.NO_WEIGH_INS.format(label=label) for label in ("Pre", "Post")),
    # A date of birth within the age range on today's date (and not before 1900): JSON Schema dates have no
    # bounds.
    accounts_msg.DOB_INVALID,
    accounts_msg.TOO_YOUNG,
    # Checks by a library or by content: a number valid for its country (phonenumbers), a Bitcoin address's
    # checksum, a video site's host, an image sniffed from its bytes.
    registration_msg.PHONE_INVALID,
    wallet_msg.PHONE_FORMAT,
    wallet_msg.ADDRESS_INVALID,
    wallet_msg.FILE_TYPE,
    accounts_msg.AVATAR_MISSING,  # an empty file is no image
    accounts_msg.INVALID_IMAGE,
    accounts_msg.AVATAR_TOO_MANY_PIXELS,
    registration_msg.FILE_EMPTY,
    pre_verification_msg.VIDEO_INVALID,
    # A withdrawal's code must be the one e-mailed last, and its e-mail and address the verified wallet's.
    wallet_msg.OTP_WRONG,
    wallet_msg.EMAIL_NOT_VERIFIED,
    wallet_msg.ADDRESS_NOT_VERIFIED,
}

# The answers to an address that is not one (e-mail-validator's verdict).
EMAIL_REFUSALS = {
    accounts_msg.EMAIL_REQUIRED_VALID,
    contact_msg.EMAIL_REQUIRED,
    wallet_msg.EMAIL_INVALID,
    wallet_msg.WITHDRAW_EMAIL_INVALID,
}


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
        "checks": {
            # Run through positive_data_acceptance_with_business_rules, with these statuses.
            "positive_data_acceptance": {"enabled": False, "expected-statuses": POSITIVE_DATA_ACCEPTED}
        },
    }
)


def _messages(response) -> set[str]:
    try:
        body = response.json()
    except ValueError:
        return set()
    if not isinstance(body, dict):
        return set()
    errors = body.get("errors") or {}
    return {body.get("message"), *(text for texts in errors.values() for text in texts)}


def _refused_by_email_validator(case) -> bool:
    """An address `format: email` allows but email-validator does not (a special-use domain such as .test,
    a label or a whole domain over its length): the service's check is the library's."""
    values = case.body.values() if isinstance(case.body, dict) else ()
    return any(isinstance(value, str) and "@" in value and normalize_email(value) is None for value in values)


@schemathesis.check
def positive_data_acceptance_with_business_rules(ctx, response, case):
    """ST202, except for a 400 whose every message is a reviewed business-rule refusal, or an e-mail refusal
    of an address email-validator refuses."""
    if response.status_code == 400:
        messages = _messages(response)
        if _refused_by_email_validator(case):
            messages -= EMAIL_REFUSALS
        if messages <= BUSINESS_RULE_REFUSALS:
            return None
    return positive_data_acceptance(ctx, response, case)


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
