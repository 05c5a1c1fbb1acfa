"""Public lists answer with an ETag and Cache-Control: a caller that sends the ETag back (If-None-Match)
gets 304 with no body, and a visitor's answer is built once every few seconds for every visitor.

A rider's own answer (it carries their registration status) is private: built for them, never shared."""

import hashlib
import time
from collections.abc import Callable, Hashable

from fastapi import Request, Response
from pydantic import BaseModel

from cycling_site.db import off_loop

# How long a visitors' answer is reused (and how long a browser or proxy may keep it without asking).
PUBLIC_SECONDS = 5
PUBLIC = f"public, max-age={PUBLIC_SECONDS}"
PRIVATE = "private, no-cache"
# The answer depends on the session sent: shared caches keep one per session header.
VARY = "Authorization, Cookie"
NOT_MODIFIED = {304: {"description": "Not modified: the ETag sent in If-None-Match is still the answer"}}

_built: dict[Hashable, tuple[float, bytes]] = {}


def body_of(answer: BaseModel) -> bytes:
    """The JSON FastAPI would send for the answer (its declared response model)."""
    return answer.__pydantic_serializer__.to_json(answer, by_alias=True)


async def public_body(key: Hashable, build: Callable[[], bytes]) -> bytes:
    """The visitors' answer for `key`, built (off the event loop) at most once every PUBLIC_SECONDS."""
    now = time.monotonic()
    found = _built.get(key)
    if found is not None and found[0] > now:
        return found[1]
    body = await off_loop(build)
    _built[key] = (now + PUBLIC_SECONDS, body)
    return body


def forget_public() -> None:
    """The next visitor's answer is built afresh (tests, and after a change that must show at once)."""
    _built.clear()


def etag_of(body: bytes) -> str:
    return f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'


def held(if_none_match: str, etag: str) -> bool:
    """The caller already holds the answer tagged `etag` (its If-None-Match names it)."""
    sent = if_none_match.strip()
    return sent == "*" or etag in (tag.strip().removeprefix("W/") for tag in sent.split(",") if tag.strip())


def answer(request: Request, body: bytes, cache_control: str) -> Response:
    """200 with the body, or 304 when the caller already holds this exact answer."""
    etag = etag_of(body)
    headers = {"ETag": etag, "Cache-Control": cache_control, "Vary": VARY}
    if held(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
