"""Failed-login limits per e-mail and per address (Redis-backed when REDIS_URL is set).

Only failures count, so a rider who signs in often is never locked out; once either limit is
used up, every attempt is refused until the window moves on.
"""

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


def reset_login_limits() -> None:
    _limiter().storage.reset()
