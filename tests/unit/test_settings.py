"""Production never runs on demo secrets and never gets demo accounts."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import SQLModel, create_engine, func, select

from cycling_site.models import Account
from cycling_site.settings import DEMO_SECRET, load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_production_refuses_the_demo_secrets(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("ALTCHA_HMAC_KEY", raising=False)
    monkeypatch.delenv("ACTIVITY_SERVICE_KEY", raising=False)
    monkeypatch.delenv("ACTIVITY_INGEST_KEY", raising=False)
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
    settings = load_settings()
    assert not settings.demo and DEMO_SECRET not in (settings.secret_key, settings.altcha_hmac_key)


@pytest.mark.parametrize("key", ["", "abc", "zz" * 32, "ab" * 31])
def test_the_activity_key_must_be_256_bits_in_hex(monkeypatch, tmp_path, key):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ACTIVITY_SERVICE_KEY", key)
    with pytest.raises(ValueError, match="64 hexadecimal"):
        load_settings()


def test_unknown_app_env_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "staging")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    with pytest.raises(ValueError, match="APP_ENV"):
        load_settings()


def test_production_seed_writes_no_demo_accounts(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'production.db'}"
    engine = create_engine(db_url)
    SQLModel.metadata.create_all(engine)
    env = {
        **os.environ,
        "APP_ENV": "production",
        "DB_URL": db_url,
        "DATA_DIR": str(tmp_path),
        "SECRET_KEY": "a-real-secret-of-production",
        "ALTCHA_HMAC_KEY": "another-real-secret",
        "ACTIVITY_SERVICE_KEY": "ab" * 32,
        "ACTIVITY_INGEST_KEY": "a-real-ingest-key",
    }
    result = subprocess.run(
        [sys.executable, "-m", "cycling_site.seed"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "no demo data written" in result.stdout
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(Account)).scalar_one() == 0
    engine.dispose()
