"""Login attempt limits per e-mail and per address (Redis-backed when REDIS_URL is set)."""

from functools import cache

from limits import parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from cycling_site.settings import settings


@cache
def _limiter() -> MovingWindowRateLimiter:
    return MovingWindowRateLimiter(storage_from_string(settings.redis_url or "memory://"))


def allow_login_attempt(email: str, address: str) -> bool:
    """Counts one attempt against both limits; False once either is used up."""
    limiter = _limiter()
    per_email = limiter.hit(parse(settings.login_limit_per_email), "login-email", email.lower())
    per_address = limiter.hit(parse(settings.login_limit_per_address), "login-address", address or "-")
    return per_email and per_address


def reset_login_limits() -> None:
    _limiter().storage.reset()
