"""Limits kept in memory, or in Redis when REDIS_URL is set: failed sign-ins per e-mail and per
address, e-mails a form may send to one address, and caps such as the phone codes a rider may ask for.

Only failed sign-ins count, so a rider who signs in often is never locked out; once either limit is
used up, every attempt is refused until the window moves on.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from cycling_site.settings import settings


@cache
def _limiter() -> MovingWindowRateLimiter:
    return MovingWindowRateLimiter(storage_from_string(settings.redis_url or "memory://"))


def _limits(email: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
    return [
        (parse(settings.login_limit_per_email), "login-email", email.lower()),
        (parse(settings.login_limit_per_address), "login-address", address or "-"),
    ]


def login_blocked(email: str, address: str) -> bool:
    limiter = _limiter()
    return any(not limiter.test(item, scope, key) for item, scope, key in _limits(email, address))


def record_failed_login(email: str, address: str) -> None:
    limiter = _limiter()
    for item, scope, key in _limits(email, address):
        limiter.hit(item, scope, key)


EMAILS_PER_ADDRESS = "5/hour"


def allow_email(kind: str, recipient: str) -> bool:
    """Counts one e-mail of this kind to this address; False once the hourly cap is reached, so that
    resend and reset forms cannot flood an inbox (or feed guesses at a typed code)."""
    return _limiter().hit(parse(EMAILS_PER_ADDRESS), "email", kind, recipient.lower())


@dataclass(frozen=True)
class Cap:
    """At most `limit` (limits notation, e.g. 5/hour) uses for one key, such as an account or an address."""

    limit: str
    key: tuple[str, ...]


def first_used_up(caps: Sequence[Cap]) -> Cap | None:
    """Counts one use against every cap and answers None; when one is used up, counts nothing and
    answers it, so a refused request does not eat into the caps it did pass."""
    limiter = _limiter()
    for cap in caps:
        if not limiter.test(parse(cap.limit), *cap.key):
            return cap
    for cap in caps:
        limiter.hit(parse(cap.limit), *cap.key)
    return None


def reset_login_limits() -> None:
    _limiter().storage.reset()
