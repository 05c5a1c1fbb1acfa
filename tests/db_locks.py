"""Another session holding the database's locks, for the tests of what the site does meanwhile: on SQLite a
second OS process in BEGIN EXCLUSIVE on the site's file, on PostgreSQL a second connection's table lock."""

import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from sqlmodel import SQLModel

from cycling_site import db
from cycling_site.settings import settings

WAIT_SECONDS = 1.0
# The holder lets go by itself after this long, should the test never tell it to.
HOLD_AT_MOST_SECONDS = 15
POSTGRES = settings.db_url.startswith("postgresql")

SQLITE_HOLDER = """
import select, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
select.select([sys.stdin], [], [], float(sys.argv[2]))
db.execute("ROLLBACK")
"""


@pytest.fixture
def short_waits(session, monkeypatch) -> Iterator[None]:
    """The site's engine waiting at most WAIT_SECONDS for a connection or a lock."""
    monkeypatch.setattr(db, "settings", dataclasses.replace(settings, db_pool_timeout=WAIT_SECONDS))
    engine = db._make_engine(settings.db_url)
    monkeypatch.setattr(db, "engine", engine)
    yield
    engine.dispose()


@contextmanager
def _sqlite_write_lock() -> Iterator[None]:
    path = make_url(settings.db_url).database
    holder = subprocess.Popen(
        [sys.executable, "-c", SQLITE_HOLDER, path, str(HOLD_AT_MOST_SECONDS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


@contextmanager
def postgres_lock(mode: str, tables: list[str]) -> Iterator[None]:
    """Another connection holds `mode` on the tables until the block ends."""
    other = create_engine(settings.db_url, poolclass=NullPool)
    try:
        with other.connect() as connection:
            connection.execute(text("SET lock_timeout = '5s'"))
            names = ", ".join(f'"{name}"' for name in tables)
            connection.execute(text(f"LOCK TABLE {names} IN {mode} MODE"))
            try:
                yield
            finally:
                connection.rollback()
    finally:
        other.dispose()


@contextmanager
def write_lock() -> Iterator[None]:
    """Another session holds the write lock of every table, readers let in."""
    if POSTGRES:
        with postgres_lock("EXCLUSIVE", [table.name for table in SQLModel.metadata.sorted_tables]):
            yield
    else:
        with _sqlite_write_lock():
            yield
