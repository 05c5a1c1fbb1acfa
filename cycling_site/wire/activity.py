"""The activity service's wire contract, shared by its client and the service.

Payloads are encrypted with AES-256-GCM under a key the site and the service share. A sealed payload is
{"iv": base64 nonce, "data": base64 ciphertext and tag}. The request path is the associated data, so a
payload sealed for one call is refused by another, and the payload carries the time it was sealed, so a
captured request stops working after MAX_AGE_SECONDS. The limits and the week numbering below are the
service's, and both sides read them here.
"""

import base64
import binascii
import json
import os
import time
from datetime import date, timedelta

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

# Where the embedded service is served when no ACTIVITY_SERVICE_URL is set.
EMBEDDED_PREFIX = "/activity-service"
MAX_FIT_BYTES = 16 * 1024 * 1024
MAX_COMPARE = 2

NONCE_BYTES = 12
MAX_AGE_SECONDS = 300
SEALED_MAX_CHARS = 64_000

NOT_ENCRYPTED = "The payload must be encrypted."
NOT_READABLE = "The payload could not be decrypted."
EXPIRED = "The payload has expired."
NOT_AN_OBJECT = "The payload must be a JSON object."


class PayloadError(ValueError):
    """A payload that is not encrypted, not ours, too old or not a JSON object."""


def seal(payload: dict, key_hex: str, path: str) -> dict:
    nonce = os.urandom(NONCE_BYTES)
    plain = json.dumps({**payload, "ts": time.time()}, separators=(",", ":")).encode()
    data = AESGCM(bytes.fromhex(key_hex)).encrypt(nonce, plain, path.encode())
    return {"iv": base64.b64encode(nonce).decode(), "data": base64.b64encode(data).decode()}


def unseal(body: object, key_hex: str, path: str) -> dict:
    if not isinstance(body, dict) or set(body) != {"iv", "data"}:
        raise PayloadError(NOT_ENCRYPTED)
    iv, data = body["iv"], body["data"]
    if not isinstance(iv, str) or not isinstance(data, str) or len(data) > SEALED_MAX_CHARS:
        raise PayloadError(NOT_READABLE)
    try:
        nonce = base64.b64decode(iv, validate=True)
        plain = AESGCM(bytes.fromhex(key_hex)).decrypt(
            nonce, base64.b64decode(data, validate=True), path.encode()
        )
        payload = json.loads(plain)
    except (binascii.Error, ValueError, InvalidTag) as exc:
        raise PayloadError(NOT_READABLE) from exc
    if not isinstance(payload, dict):
        raise PayloadError(NOT_AN_OBJECT)
    sealed_at = payload.pop("ts", None)
    if not isinstance(sealed_at, int | float) or abs(time.time() - sealed_at) > MAX_AGE_SECONDS:
        raise PayloadError(EXPIRED)
    return payload


def read_plain(body: object) -> dict:
    """With encryption off the payload travels as a plain JSON object."""
    if not isinstance(body, dict):
        raise PayloadError(NOT_AN_OBJECT)
    return body


def first_week_start(year: int, month: int) -> date:
    """The Monday of the week holding the month's 1st."""
    first = date(year, month, 1)
    return first - timedelta(days=first.weekday())


def week_of_month(day: date) -> int:
    """Weeks run Monday to Sunday and are numbered within their month: week 1 holds the 1st (spec 3)."""
    return (day - first_week_start(day.year, day.month)).days // 7 + 1
