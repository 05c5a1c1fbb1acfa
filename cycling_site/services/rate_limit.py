"""Limits kept in Redis when REDIS_URL is set, in the database otherwise, so that every worker and a restart
see them: failed sign-ins per e-mail and per address, e-mails a form may send to one address, and caps such
as the phone codes a rider may ask for.

Only failed sign-ins count, so a rider who signs in often is never locked out; once either limit is
used up, every attempt is refused until the window moves on. Windows move: a hit counts for the window's
length after it was made (the `limits` notation, e.g. 5/hour, gives the number and the length).

A hit is counted only below its limit, checked and recorded in one step (a Redis script, or one database
transaction that locks the keys' rows), so parallel requests cannot overshoot.
"""

import hashlib
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Protocol

from limits import parse
from redis import Redis
from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col

from cycling_site.db import engine
from cycling_site.models import RateLimitWindow
from cycling_site.settings import settings


@dataclass(frozen=True)
class Window:
    """At most `amount` hits within any `seconds` for one key (already hashed)."""

    key: str
    amount: int
    seconds: int


def window(limit: str, *parts: str) -> Window:
    item = parse(limit)
    # Hashed: a fixed length for the key column, and no e-mail address or phone number kept in the store.
    key = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    return Window(key, item.amount, item.get_expiry())


class Store(Protocol):
    def first_full(self, windows: Sequence[Window], now: float, take: bool) -> int | None:
        """The index of the first window whose limit is reached; when none is and `take` is set, one hit is
        counted in every window, all in one step."""
        ...

    def give_back(self, windows: Sequence[Window]) -> None:
        """Takes the latest hit out of every window."""
        ...

    def reset(self) -> None: ...


_INSERT = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}


class DatabaseStore:
    """Each key's row is locked (an upsert) before its hits are counted, so parallel takes queue one
    after another; keys are locked in one order, so two takes never wait for each other."""

    def first_full(self, windows: Sequence[Window], now: float, take: bool) -> int | None:
        keys = sorted({each.key for each in windows})
        expires = datetime.fromtimestamp(now, UTC)
        with engine.begin() as connection:
            if take:
                insert = _INSERT[connection.dialect.name](RateLimitWindow)
                connection.execute(
                    insert.values([{"key": key, "hits": [], "expires_at": expires} for key in keys])
                    # Updating the row (to itself) locks it until the transaction ends.
                    .on_conflict_do_update(index_elements=["key"], set_={"key": insert.excluded.key})
                )
            stored = dict(
                connection.execute(
                    select(col(RateLimitWindow.key), col(RateLimitWindow.hits)).where(
                        col(RateLimitWindow.key).in_(keys)
                    )
                ).all()
            )
            kept: dict[str, list[float]] = {}
            for index, each in enumerate(windows):
                kept[each.key] = [hit for hit in stored.get(each.key) or [] if hit > now - each.seconds]
                if len(kept[each.key]) >= each.amount:
                    return index
            if not take:
                return None
            for each in windows:
                connection.execute(
                    update(RateLimitWindow)
                    .where(col(RateLimitWindow.key) == each.key)
                    .values(
                        hits=[*kept[each.key], now],
                        expires_at=datetime.fromtimestamp(now + each.seconds, UTC),
                    )
                )
        self._prune(now)
        return None

    @staticmethod
    def _prune(now: float) -> None:
        """Rows whose hits have all left their windows go. Rows locked by a take under way are skipped
        (PostgreSQL), so pruning never waits for one."""
        with engine.begin() as connection:
            stale = (
                select(col(RateLimitWindow.key))
                .where(col(RateLimitWindow.expires_at) < datetime.fromtimestamp(now, UTC))
                .with_for_update(skip_locked=True)
            )
            connection.execute(delete(RateLimitWindow).where(col(RateLimitWindow.key).in_(stale)))

    def give_back(self, windows: Sequence[Window]) -> None:
        with engine.begin() as connection:
            for key in sorted({each.key for each in windows}):
                # Locks the row first (an update to itself), so a take under way is not undone.
                connection.execute(
                    update(RateLimitWindow).where(col(RateLimitWindow.key) == key).values(key=key)
                )
                hits = connection.execute(
                    select(col(RateLimitWindow.hits)).where(col(RateLimitWindow.key) == key)
                ).scalar()
                if hits:
                    kept = sorted(hits)[:-1]
                    connection.execute(
                        update(RateLimitWindow).where(col(RateLimitWindow.key) == key).values(hits=kept)
                    )

    def reset(self) -> None:
        with engine.begin() as connection:
            connection.execute(delete(RateLimitWindow))


# KEYS: one sorted set of hit times per window. ARGV: now, take (1 or 0), a member unique to this take,
# then each window's amount and seconds. Redis runs a script alone, so checking and counting are one step.
_TAKE_SCRIPT = """
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call("ZREMRANGEBYSCORE", key, "-inf", now - tonumber(ARGV[3 + 2 * i]))
  if redis.call("ZCARD", key) >= tonumber(ARGV[2 + 2 * i]) then
    return i
  end
end
if ARGV[2] == "1" then
  for i, key in ipairs(KEYS) do
    redis.call("ZADD", key, now, ARGV[3])
    redis.call("EXPIRE", key, tonumber(ARGV[3 + 2 * i]))
  end
end
return 0
"""

_REDIS_PREFIX = "rate-limit:"


class RedisStore:
    def __init__(self, url: str) -> None:
        self._redis = Redis.from_url(url)
        self._take = self._redis.register_script(_TAKE_SCRIPT)

    def first_full(self, windows: Sequence[Window], now: float, take: bool) -> int | None:
        sizes = [number for each in windows for number in (each.amount, each.seconds)]
        found = int(
            self._take(
                keys=[_REDIS_PREFIX + each.key for each in windows],
                args=[repr(now), int(take), uuid.uuid4().hex, *sizes],
            )
        )
        return found - 1 if found else None

    def give_back(self, windows: Sequence[Window]) -> None:
        for each in windows:
            self._redis.zpopmax(_REDIS_PREFIX + each.key)

    def reset(self) -> None:
        for key in self._redis.scan_iter(match=_REDIS_PREFIX + "*"):
            self._redis.delete(key)


@cache
def _store() -> Store:
    return RedisStore(settings.redis_url) if settings.redis_url else DatabaseStore()


def _limits(email: str, address: str) -> list[Window]:
    return [
        window(settings.login_limit_per_email, "login-email", email.lower()),
        window(settings.login_limit_per_address, "login-address", address or "-"),
    ]


def login_blocked(email: str, address: str) -> bool:
    return _store().first_full(_limits(email, address), time.time(), take=False) is not None


def take_login_attempt(email: str, address: str) -> bool:
    """Counts a sign-in attempt before its password is checked, only while both limits have room (False
    once either is used up): parallel guesses cannot all pass a check made before any of them counted.
    A right password gives the attempt back (`give_back_login_attempt`), so only failures count."""
    return _store().first_full(_limits(email, address), time.time(), take=True) is None


def give_back_login_attempt(email: str, address: str) -> None:
    _store().give_back(_limits(email, address))


EMAILS_PER_ADDRESS = "5/hour"


def allow_email(kind: str, recipient: str) -> bool:
    """Counts one e-mail of this kind to this address; False once the hourly cap is reached, so that
    resend and reset forms cannot flood an inbox (or feed guesses at a typed code)."""
    capped = window(EMAILS_PER_ADDRESS, "email", kind, recipient.lower())
    return _store().first_full([capped], time.time(), take=True) is None


@dataclass(frozen=True)
class Cap:
    """At most `limit` (limits notation, e.g. 5/hour) uses for one key, such as an account or an address."""

    limit: str
    key: tuple[str, ...]


def first_used_up(caps: Sequence[Cap]) -> Cap | None:
    """Counts one use against every cap and answers None; when one is used up, counts nothing and
    answers it, so a refused request does not eat into the caps it did pass."""
    found = _store().first_full([window(cap.limit, *cap.key) for cap in caps], time.time(), take=True)
    return None if found is None else caps[found]


def reset_limits() -> None:
    _store().reset()
