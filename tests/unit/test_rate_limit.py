"""Rate limits as every worker sees them: kept in the database (or in Redis when REDIS_URL is set, as under
./scripts/with-redis), through a restart, and counted one request at a time however many come at once."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from redis import Redis
from sqlmodel import select

from cycling_site.models import RateLimitWindow
from cycling_site.services import rate_limit
from cycling_site.services.rate_limit import Cap, DatabaseStore, RedisStore, first_used_up, window
from cycling_site.settings import settings
from tests.unit.conftest import count, race

ROOT = Path(__file__).resolve().parents[2]
CODES = Cap("5/hour", ("phone-code-account", "7"))
ADDRESS = Cap("20/hour", ("phone-code-address", "203.0.113.9"))
HOUR = 3600


def _in_a_new_process(caps: list[Cap]) -> str:
    """first_used_up in a freshly started interpreter on the same database (or Redis): a restarted worker."""
    script = (
        "from cycling_site.services.rate_limit import Cap, first_used_up\n"
        f"used_up = first_used_up({caps!r})\n"
        "print('refused' if used_up else 'allowed')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ), capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_used_up_cap_holds_after_a_restart(session):
    for _ in range(5):
        assert first_used_up([CODES]) is None
    assert _in_a_new_process([CODES]) == "refused"
    assert _in_a_new_process([Cap("5/hour", ("phone-code-account", "8"))]) == "allowed"


def test_a_restarted_worker_adds_to_the_same_count(session):
    assert _in_a_new_process([CODES]) == "allowed"
    for _ in range(4):
        assert first_used_up([CODES]) is None
    assert first_used_up([CODES]) == CODES


def test_thirty_parallel_requests_let_exactly_five_through(session):
    answers = race(lambda _own, _number: first_used_up([CODES, ADDRESS]), 30)
    assert answers.count(None) == 5
    assert answers.count(CODES) == 25
    # The 25 refused took nothing from the address cap: 15 of its 20 are left.
    other = Cap("50/hour", ("phone-code-account", "8"))
    assert [first_used_up([other, ADDRESS]) for _ in range(16)].count(None) == 15


def test_parallel_e_mails_to_one_address_stop_at_the_cap(session):
    answers = race(lambda _own, _number: rate_limit.allow_email("password-reset", "Rider@Example.com"), 30)
    assert answers.count(True) == rate_limit.parse(rate_limit.EMAILS_PER_ADDRESS).amount


def test_a_refused_request_eats_none_of_its_caps(session):
    tight = Cap("2/hour", ("phone-code-number", "971501234567"))
    assert [first_used_up([CODES, tight]) for _ in range(3)] == [None, None, tight]
    # Parallel refusals too: the account's cap still has its three uses left.
    assert race(lambda _own, _number: first_used_up([CODES, tight]), 10) == [tight] * 10
    assert [first_used_up([CODES]) for _ in range(4)] == [None, None, None, CODES]


def test_failed_sign_ins_block_and_a_reset_clears_them(session):
    for _ in range(5):
        assert not rate_limit.login_blocked("rider@example.com", "203.0.113.9")
        assert rate_limit.take_login_attempt("Rider@Example.com", "203.0.113.9")
    assert not rate_limit.take_login_attempt("rider@example.com", "203.0.113.9")
    assert rate_limit.login_blocked("rider@example.com", "198.51.100.1")
    assert not rate_limit.login_blocked("other@example.com", "198.51.100.1")
    rate_limit.reset_limits()
    assert not rate_limit.login_blocked("rider@example.com", "203.0.113.9")


def test_thirty_parallel_sign_ins_are_judged_five_times_and_right_ones_count_nothing(session):
    """Each attempt is counted before its password is checked: of 30 at once, 5 are judged."""
    taken = race(lambda _own, _number: rate_limit.take_login_attempt("rider@example.com", "203.0.113.9"), 30)
    assert sum(taken) == 5
    rate_limit.reset_limits()
    for _ in range(20):
        assert rate_limit.take_login_attempt("rider@example.com", "203.0.113.9")
        rate_limit.give_back_login_attempt("rider@example.com", "203.0.113.9")
    assert not rate_limit.login_blocked("rider@example.com", "203.0.113.9")


# --- The database store ----------------------------------------------------------------------------------


def test_hits_leave_the_window_as_it_moves(session):
    store, limit = DatabaseStore(), window("5/hour", "phone-code-account", "7")
    now = time.time()
    for minutes_ago in (61, 61, 61, 30, 30):
        assert store.first_full([limit], now - minutes_ago * 60, take=True) is None
    # Two hits are in the last hour (the three older ones no longer count): three more go through.
    assert [store.first_full([limit], now, take=True) for _ in range(4)] == [None, None, None, 0]
    session.expire_all()
    assert len(session.exec(select(RateLimitWindow.hits)).one()) == 5


def test_rows_whose_hits_all_left_their_window_are_pruned(session):
    store = DatabaseStore()
    now = time.time()
    for number in range(3):
        store.first_full(
            [window("5/hour", "email", "verification", f"{number}@example.com")], now - 2 * HOUR, True
        )
    assert count(session, RateLimitWindow) == 3
    store.first_full([window("5/hour", "email", "verification", "new@example.com")], now, take=True)
    assert count(session, RateLimitWindow) == 1


@pytest.mark.skipif(bool(settings.redis_url), reason="kept in Redis")
def test_the_store_keeps_neither_addresses_nor_numbers(session):
    first_used_up([Cap("5/hour", ("phone-code-number", "971501234567"))])
    rate_limit.allow_email("verification", "rider@example.com")
    session.expire_all()
    keys = session.exec(select(RateLimitWindow.key)).all()
    assert len(keys) == 2
    assert not any("971501234567" in key or "example" in key for key in keys)


# --- The Redis store (under ./scripts/with-redis) --------------------------------------------------------


@pytest.mark.skipif(not settings.redis_url, reason="needs REDIS_URL")
def test_redis_drops_hits_that_left_the_window_and_the_key_with_its_last_hit(session):
    store, limit = RedisStore(settings.redis_url), window("5/hour", "phone-code-account", "7")
    now = time.time()
    for _ in range(5):
        assert store.first_full([limit], now - 2 * HOUR, take=True) is None
    assert store.first_full([limit], now, take=True) is None
    kept = Redis.from_url(settings.redis_url)
    assert kept.zcard(f"rate-limit:{limit.key}") == 1
    assert 0 < kept.ttl(f"rate-limit:{limit.key}") <= HOUR
