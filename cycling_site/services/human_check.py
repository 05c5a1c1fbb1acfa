"""The self-hosted human check (ALTCHA proof of work): challenges, and single-use verification."""

import json
from base64 import b64decode
from binascii import Error as BinasciiError
from datetime import UTC, datetime, timedelta

from altcha import ChallengeOptionsV1, create_challenge_v1, verify_solution_v1
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete

from cycling_site.models import UsedHumanCheck
from cycling_site.settings import settings

CHALLENGE_LIFETIME = timedelta(minutes=10)
MAX_PAYLOAD_LENGTH = 2048


def new_challenge() -> dict:
    options = ChallengeOptionsV1(
        hmac_key=settings.altcha_hmac_key,
        max_number=settings.altcha_max_number,
        expires=datetime.now(UTC) + CHALLENGE_LIFETIME,
    )
    challenge = create_challenge_v1(options)
    return {
        "algorithm": challenge.algorithm,
        "challenge": challenge.challenge,
        "maxnumber": challenge.max_number,
        "salt": challenge.salt,
        "signature": challenge.signature,
    }


PAYLOAD_FIELDS = {"algorithm": str, "challenge": str, "number": int, "salt": str, "signature": str}


def _signature(payload: str) -> str | None:
    """The payload's signature when every field has the type ALTCHA gives it, else None."""
    try:
        data = json.loads(b64decode(payload, validate=True))
    except (BinasciiError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for name, kind in PAYLOAD_FIELDS.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            return None
    signature = data["signature"]
    return signature if len(signature) <= 128 else None


def verify(session: Session, payload: str | None) -> bool:
    """True once per solved challenge: a replayed solution is refused."""
    if not payload or len(payload) > MAX_PAYLOAD_LENGTH:
        return False
    signature = _signature(payload)
    if signature is None:
        return False
    ok, _error = verify_solution_v1(payload, settings.altcha_hmac_key, check_expires=True)
    if not ok:
        return False
    now = datetime.now(UTC)
    session.exec(delete(UsedHumanCheck).where(UsedHumanCheck.expires_at < now))
    session.add(UsedHumanCheck(signature=signature, expires_at=now + CHALLENGE_LIFETIME))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True
