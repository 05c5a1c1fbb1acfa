"""The self-hosted human check: a solved challenge counts once; anything else is refused quietly."""

import base64
import json
from datetime import UTC, datetime, timedelta

import pytest
from altcha import ChallengeOptionsV1, create_challenge_v1

from cycling_site.models import UsedHumanCheck
from cycling_site.services import human_check
from cycling_site.settings import settings
from tests.unit.conftest import count, solve_payload


def encode(data) -> str:
    return base64.b64encode(json.dumps(data).encode()).decode()


def decode(payload: str) -> dict:
    return json.loads(base64.b64decode(payload))


def challenge_signed_with(key: str, expires: datetime) -> dict:
    options = ChallengeOptionsV1(hmac_key=key, max_number=settings.altcha_max_number, expires=expires)
    challenge = create_challenge_v1(options)
    return {
        "algorithm": challenge.algorithm,
        "challenge": challenge.challenge,
        "maxnumber": challenge.max_number,
        "salt": challenge.salt,
        "signature": challenge.signature,
    }


def test_new_challenge_has_what_the_widget_needs():
    challenge = human_check.new_challenge()
    assert set(challenge) == {"algorithm", "challenge", "maxnumber", "salt", "signature"}
    assert challenge["algorithm"] == "SHA-256"
    assert challenge["maxnumber"] == settings.altcha_max_number
    assert "expires=" in challenge["salt"]
    assert human_check.new_challenge()["challenge"] != challenge["challenge"]


def test_solved_payload_verifies_once(session):
    payload = solve_payload()
    assert human_check.verify(session, payload) is True
    assert human_check.verify(session, payload) is False
    assert count(session, UsedHumanCheck) == 1


def test_two_solved_challenges_each_verify(session):
    assert human_check.verify(session, solve_payload()) is True
    assert human_check.verify(session, solve_payload()) is True


def test_wrong_number_is_refused(session):
    data = decode(solve_payload())
    data["number"] += 1
    assert human_check.verify(session, encode(data)) is False


def test_payload_signed_with_another_key_is_refused(session):
    challenge = challenge_signed_with("some-other-key", datetime.now(UTC) + timedelta(minutes=5))
    assert human_check.verify(session, solve_payload(challenge)) is False
    assert count(session, UsedHumanCheck) == 0


def test_expired_challenge_is_refused(session):
    challenge = challenge_signed_with(settings.altcha_hmac_key, datetime.now(UTC) - timedelta(seconds=5))
    assert human_check.verify(session, solve_payload(challenge)) is False


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(None, id="none"),
        pytest.param("", id="empty"),
        pytest.param("garbage!!", id="not-base64"),
        pytest.param("é" * 8, id="non-ascii"),
        pytest.param(base64.b64encode(b"not json").decode(), id="base64-garbage"),
        pytest.param(base64.b64encode(b"\xff\xfe\x00").decode(), id="base64-binary"),
        pytest.param(encode([1, 2, 3]), id="json-list"),
        pytest.param(encode({"signature": "abc"}), id="fields-missing"),
        pytest.param(encode({"signature": 42}), id="signature-not-a-string"),
        pytest.param("A" * (human_check.MAX_PAYLOAD_LENGTH + 4), id="oversized"),
    ],
)
def test_garbage_is_refused_without_errors(session, payload):
    assert human_check.verify(session, payload) is False
    assert count(session, UsedHumanCheck) == 0


def test_oversized_signature_is_refused(session):
    data = decode(solve_payload())
    data["signature"] = "a" * 129
    assert human_check.verify(session, encode(data)) is False


@pytest.mark.parametrize("salt", [123, None, ["a"]])
def test_payload_with_a_non_string_salt_is_refused(session, salt):
    data = decode(solve_payload())
    data["salt"] = salt
    assert human_check.verify(session, encode(data)) is False
