"""The Alembic migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

import os
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

import cycling_site.embedded.activity.models  # noqa: F401  (each service's own tables)
import cycling_site.embedded.payments.models  # noqa: F401
import cycling_site.embedded.results.models  # noqa: F401
import cycling_site.models  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def _migrate(db_url: str) -> None:
    env = {**os.environ, "DB_URL": db_url}
    reflex = str(Path(sys.executable).parent / "reflex")
    result = subprocess.run([reflex, "db", "migrate"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _differences(db_url: str) -> list:
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            return compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    finally:
        engine.dispose()


def _drop_everything(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        SQLModel.metadata.drop_all(engine)
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        engine.dispose()


def _restore_models_schema(db_url: str) -> None:
    """The other tests share this database and expect the models' tables, built once per run."""
    engine = create_engine(db_url)
    try:
        SQLModel.metadata.create_all(engine)
    finally:
        engine.dispose()


def test_migrations_match_the_models(tmp_path):
    db_url = os.environ.get("TEST_DB_URL") or f"sqlite:///{tmp_path / 'migrated.db'}"
    _drop_everything(db_url)
    try:
        _migrate(db_url)
        assert _differences(db_url) == []
    finally:
        _drop_everything(db_url)
        _restore_models_schema(db_url)
