"""Test settings: a throwaway data folder and database, set before the app is imported.

TEST_DB_URL runs the same tests on PostgreSQL instead of SQLite.
"""

import os
import tempfile
from pathlib import Path

_data_dir = Path(tempfile.mkdtemp(prefix="cycling-tests-"))


def _worker_database(url: str) -> str:
    """Under pytest-xdist each worker gets a PostgreSQL database of its own, made on first use."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    own = make_url(url).set(database=f"{make_url(url).database}_{worker}")
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %s", (own.database,))
        if exists.first() is None:
            connection.exec_driver_sql(f'CREATE DATABASE "{own.database}"')
    admin.dispose()
    return own.render_as_string(hide_password=False)


if os.environ.get("TEST_DB_URL"):
    os.environ["TEST_DB_URL"] = _worker_database(os.environ["TEST_DB_URL"])
os.environ["APP_ENV"] = "demo"
os.environ["DATA_DIR"] = str(_data_dir)
os.environ["DB_URL"] = os.environ.get("TEST_DB_URL") or f"sqlite:///{_data_dir / 'unit.db'}"
os.environ["LOGIN_LIMIT_PER_EMAIL"] = "5/minute"
os.environ["LOGIN_LIMIT_PER_ADDRESS"] = "30/minute"

import pytest  # noqa: E402
from sqlalchemy import text  # noqa: E402
from sqlmodel import Session, SQLModel  # noqa: E402

import cycling_site.embedded.activity.models  # noqa: E402, F401  (each service's own tables)
import cycling_site.embedded.payments.models  # noqa: E402, F401
import cycling_site.embedded.results.models  # noqa: E402, F401
import cycling_site.models  # noqa: E402, F401
from cycling_site.db import engine  # noqa: E402
from cycling_site.services.rate_limit import reset_limits  # noqa: E402


@pytest.fixture(scope="session")
def schema() -> None:
    """The models' tables, built once: rebuilding them for every test took 40 % of the run."""
    SQLModel.metadata.drop_all(engine)
    SQLModel.metadata.create_all(engine)


def empty_tables() -> None:
    """Every row gone and the ids counting from 1 again, as on a new database."""
    tables = SQLModel.metadata.sorted_tables
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            names = ", ".join(f'"{table.name}"' for table in tables)
            connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for table in reversed(tables):
                connection.execute(table.delete())


@pytest.fixture
def session(schema) -> Session:
    """An empty database for each test."""
    empty_tables()
    reset_limits()
    with Session(engine, expire_on_commit=False) as db_session:
        yield db_session
