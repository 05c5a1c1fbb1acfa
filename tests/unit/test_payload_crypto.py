"""The activity service's encryption contract: only a payload sealed with our key, for this call, lately."""

import base64
import os
import time

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from cycling_site.wire import activity as payload_crypto
from cycling_site.wire.activity import PayloadError, read_plain, seal, unseal

KEY = "11" * 32
OTHER_KEY = "22" * 32
PATH = "/activity-info"


def test_a_sealed_payload_opens_with_the_same_key_and_path():
    sealed = seal({"uuid": "abc", "fileId": "f1"}, KEY, PATH)
    assert set(sealed) == {"iv", "data"}
    assert "abc" not in sealed["data"]
    assert unseal(sealed, KEY, PATH) == {"uuid": "abc", "fileId": "f1"}


def test_each_seal_uses_a_fresh_nonce():
    assert seal({"a": 1}, KEY, PATH)["iv"] != seal({"a": 1}, KEY, PATH)["iv"]


@pytest.mark.parametrize(
    ("body", "key", "path", "message"),
    [
        ({"uuid": "abc"}, KEY, PATH, payload_crypto.NOT_ENCRYPTED),
        ("text", KEY, PATH, payload_crypto.NOT_ENCRYPTED),
        (None, KEY, PATH, payload_crypto.NOT_ENCRYPTED),
        ("sealed", OTHER_KEY, PATH, payload_crypto.NOT_READABLE),
        ("sealed", KEY, "/download-activity-file", payload_crypto.NOT_READABLE),
        ({"iv": "!!", "data": "!!"}, KEY, PATH, payload_crypto.NOT_READABLE),
        ({"iv": 1, "data": 2}, KEY, PATH, payload_crypto.NOT_READABLE),
    ],
)
def test_anything_else_is_refused(body, key, path, message):
    if body == "sealed":
        body = seal({"uuid": "abc"}, KEY, PATH)
    with pytest.raises(PayloadError, match=message):
        unseal(body, key, path)


def test_a_tampered_ciphertext_is_refused():
    sealed = seal({"uuid": "abc"}, KEY, PATH)
    data = bytearray(sealed["data"].encode())
    data[5] = ord("A") if data[5] != ord("A") else ord("B")
    with pytest.raises(PayloadError, match=payload_crypto.NOT_READABLE):
        unseal({"iv": sealed["iv"], "data": data.decode()}, KEY, PATH)


def test_an_old_payload_is_refused(monkeypatch):
    sealed = seal({"uuid": "abc"}, KEY, PATH)
    later = time.time() + payload_crypto.MAX_AGE_SECONDS + 5
    monkeypatch.setattr(payload_crypto.time, "time", lambda: later)
    with pytest.raises(PayloadError, match=payload_crypto.EXPIRED):
        unseal(sealed, KEY, PATH)


def test_a_sealed_list_is_not_a_payload():
    nonce = os.urandom(12)
    data = AESGCM(bytes.fromhex(KEY)).encrypt(nonce, b"[1, 2]", PATH.encode())
    body = {"iv": base64.b64encode(nonce).decode(), "data": base64.b64encode(data).decode()}
    with pytest.raises(PayloadError, match=payload_crypto.NOT_AN_OBJECT):
        unseal(body, KEY, PATH)


def test_plain_payloads_must_be_objects():
    assert read_plain({"uuid": "abc"}) == {"uuid": "abc"}
    with pytest.raises(PayloadError, match=payload_crypto.NOT_AN_OBJECT):
        read_plain([1])
