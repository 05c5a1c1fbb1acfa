"""Production never runs on demo secrets, never gets demo accounts and takes card payments only through a
real provider."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import SQLModel, create_engine, func, select

from cycling_site.models import Account
from cycling_site.settings import DEMO_SECRET, load_settings

ROOT = Path(__file__).resolve().parents[2]
# Everything a production start needs, each a value of its own (none of the demo's).
PRODUCTION = {
    "APP_ENV": "production",
    "SECRET_KEY": "a-real-secret-of-production",
    "ALTCHA_HMAC_KEY": "another-real-secret",
    "ACTIVITY_SERVICE_KEY": "ab" * 32,
    "ACTIVITY_INGEST_KEY": "a-real-ingest-key",
    "PAYMENTS_API_BASE": "https://api.stripe.com",
    "PAYMENTS_SECRET_KEY": "sk_live_a-real-key",
    "PAYMENTS_WEBHOOK_SECRET": "whsec_a-real-secret",
    "CONTENT_SERVICE_KEY": "a-real-content-key",
}


def _production(monkeypatch, tmp_path, **changes: str) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    for name, value in {**PRODUCTION, **changes}.items():
        monkeypatch.setenv(name, value)


def test_production_refuses_the_demo_secrets(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("ALTCHA_HMAC_KEY", raising=False)
    monkeypatch.delenv("ACTIVITY_SERVICE_KEY", raising=False)
    monkeypatch.delenv("ACTIVITY_INGEST_KEY", raising=False)
    monkeypatch.delenv("PAYMENTS_SECRET_KEY", raising=False)
    monkeypatch.delenv("PAYMENTS_WEBHOOK_SECRET", raising=False)
    monkeypatch.delenv("CONTENT_SERVICE_KEY", raising=False)
    with pytest.raises(ValueError, match="SECRET_KEY"):
        load_settings()
    monkeypatch.setenv("SECRET_KEY", "a-real-secret-of-production")
    with pytest.raises(ValueError, match="ALTCHA_HMAC_KEY"):
        load_settings()
    monkeypatch.setenv("ALTCHA_HMAC_KEY", "another-real-secret")
    with pytest.raises(ValueError, match="ACTIVITY_SERVICE_KEY"):
        load_settings()
    monkeypatch.setenv("ACTIVITY_SERVICE_KEY", "ab" * 32)
    with pytest.raises(ValueError, match="ACTIVITY_INGEST_KEY"):
        load_settings()
    monkeypatch.setenv("ACTIVITY_INGEST_KEY", "a-real-ingest-key")
    with pytest.raises(ValueError, match="PAYMENTS_SECRET_KEY"):
        load_settings()
    monkeypatch.setenv("PAYMENTS_SECRET_KEY", "sk_live_a-real-key")
    with pytest.raises(ValueError, match="PAYMENTS_WEBHOOK_SECRET"):
        load_settings()
    monkeypatch.setenv("PAYMENTS_WEBHOOK_SECRET", "whsec_a-real-secret")
    with pytest.raises(ValueError, match="CONTENT_SERVICE_KEY"):
        load_settings()
    monkeypatch.setenv("CONTENT_SERVICE_KEY", "a-real-content-key")
    monkeypatch.setenv("PAYMENTS_API_BASE", "https://api.stripe.com")
    settings = load_settings()
    assert not settings.demo and DEMO_SECRET not in (settings.secret_key, settings.altcha_hmac_key)


@pytest.mark.parametrize("key", ["", "abc", "zz" * 32, "ab" * 31])
def test_the_activity_key_must_be_256_bits_in_hex(monkeypatch, tmp_path, key):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ACTIVITY_SERVICE_KEY", key)
    with pytest.raises(ValueError, match="64 hexadecimal"):
        load_settings()


@pytest.mark.parametrize("code", ["", "UAE", "XX", "784"])
def test_the_default_country_must_be_an_iso_code(monkeypatch, tmp_path, code):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DEFAULT_COUNTRY", code)
    with pytest.raises(ValueError, match="DEFAULT_COUNTRY"):
        load_settings()


def test_the_default_country_is_the_united_arab_emirates_unless_set(monkeypatch, tmp_path):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DEFAULT_COUNTRY", raising=False)
    assert load_settings().default_country == "AE"
    monkeypatch.setenv("DEFAULT_COUNTRY", " fi ")
    assert load_settings().default_country == "FI"


def test_unknown_app_env_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "staging")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    with pytest.raises(ValueError, match="APP_ENV"):
        load_settings()


def test_production_seed_writes_no_demo_accounts(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'production.db'}"
    engine = create_engine(db_url)
    SQLModel.metadata.create_all(engine)
    env = {**os.environ, **PRODUCTION, "DB_URL": db_url, "DATA_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "cycling_site.seed"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "no demo data written" in result.stdout
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(Account)).scalar_one() == 0
    engine.dispose()


@pytest.mark.parametrize(
    ("env", "origins"),
    [
        ({"SITE_URL": "http://localhost:3000"}, ["http://localhost:3000", "http://127.0.0.1:3000"]),
        ({"SITE_URL": "http://127.0.0.1:8080/"}, ["http://127.0.0.1:8080", "http://localhost:8080"]),
        ({"SITE_URL": "https://Ride.Example.com:443/app"}, ["https://ride.example.com"]),
        (
            {
                "SITE_URL": "https://ride.example.com",
                "EXTRA_ORIGINS": " https://app.example.com , http://x.test:81 ",
            },
            ["https://ride.example.com", "https://app.example.com", "http://x.test:81"],
        ),
        ({"SITE_URL": "http://localhost:3000", "APP_ENV": "production"}, ["http://localhost:3000"]),
    ],
    ids=["demo-localhost", "demo-loopback-ip", "https-default-port", "extra-origins", "production-no-twin"],
)
def test_allowed_origins_are_the_sites_own(monkeypatch, tmp_path, env, origins):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    if env.get("APP_ENV") == "production":
        _production(monkeypatch, tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert load_settings().allowed_origins == origins


@pytest.mark.parametrize(
    "env",
    [{"SITE_URL": "ride.example.com"}, {"EXTRA_ORIGINS": "*"}, {"TEAM_EVENTS_URL": "javascript:alert(1)"}],
)
def test_an_origin_that_is_no_http_address_stops_the_start(monkeypatch, tmp_path, env):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match="http"):
        load_settings()


def test_several_workers_lease_a_tabs_state_and_one_worker_has_no_lease():
    from rxconfig import state_lease_environment

    leased = {"REFLEX_OPLOCK_ENABLED": "true", "REFLEX_OPLOCK_HOLD_TIME_MS": "10000"}
    assert state_lease_environment("redis://127.0.0.1:6379/0", 10_000) == leased
    assert state_lease_environment("redis://127.0.0.1:6379/0", 0) == {}
    assert state_lease_environment("", 10_000) == {}


def test_each_worker_asks_for_a_leased_state_under_a_name_of_its_own():
    from types import SimpleNamespace

    from redis.asyncio import Redis
    from reflex.istate.manager.memory import StateManagerMemory
    from reflex.istate.manager.redis import StateManagerRedis

    from cycling_site.cycling_site import own_lease_identity

    # The workers are forked from one process that made the manager: each runs the app's start-up.
    forked = StateManagerRedis(redis=Redis.from_url("redis://127.0.0.1:1/0"))
    names = {forked._instance_id}
    for _worker in range(2):
        own_lease_identity(SimpleNamespace(state_manager=forked))
        names.add(forked._instance_id)
    assert len(names) == 3
    one_worker = StateManagerMemory()
    own_lease_identity(SimpleNamespace(state_manager=one_worker))
    assert not hasattr(one_worker, "_instance_id")


@pytest.mark.parametrize("lease", ["-1", "60001"])
def test_a_state_lease_outside_0_to_60_seconds_is_refused(monkeypatch, tmp_path, lease):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("STATE_LEASE_MS", lease)
    with pytest.raises(ValueError, match="STATE_LEASE_MS"):
        load_settings()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"PAYMENTS_API_BASE": ""}, "Set PAYMENTS_API_BASE to your payment provider's API"),
        (
            {
                "PAYMENTS_API_BASE": "https://ride.example.com/payments-service",
                "SITE_URL": "https://ride.example.com",
            },
            "points at this site",
        ),
        ({"PAYMENTS_API_BASE": "http://api.stripe.com"}, "must be an https:// address"),
        ({"PAYMENTS_SECRET_KEY": "a-real-looking-secret"}, "PAYMENTS_SECRET_KEY must be your payment"),
        ({"PAYMENTS_SECRET_KEY": "pk_live_a-publishable-key"}, "PAYMENTS_SECRET_KEY must be your payment"),
        ({"PAYMENTS_WEBHOOK_SECRET": "a-real-webhook-secret"}, "PAYMENTS_WEBHOOK_SECRET must be"),
    ],
    ids=["no-provider", "the-sandbox", "not-https", "unnamed-key", "publishable-key", "unnamed-webhook"],
)
def test_production_refuses_to_start_without_a_real_payment_provider(monkeypatch, tmp_path, changes, reason):
    _production(monkeypatch, tmp_path, **changes)
    with pytest.raises(ValueError, match=re.escape(reason)):
        load_settings()


@pytest.mark.parametrize("key", ["sk_live_a-real-key", "sk_test_a-real-key", "rk_live_a-restricted-key"])
def test_production_starts_with_a_providers_live_or_test_keys(monkeypatch, tmp_path, key):
    _production(monkeypatch, tmp_path, PAYMENTS_SECRET_KEY=key)
    assert load_settings().payments_api_base == "https://api.stripe.com"


def test_demo_mode_pays_in_the_built_in_sandbox(monkeypatch, tmp_path):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("APP_ENV", "demo")
    monkeypatch.delenv("PAYMENTS_API_BASE", raising=False)
    assert load_settings().payments_api_base == ""
