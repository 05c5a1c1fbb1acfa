"""What a caller gets when the server fails: a busy database asks to retry, anything else is a JSON 500."""

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from cycling_site.messages import site as site_msg
from cycling_site.services import events

UPCOMING = "/api/events/upcoming"


class _PostgresError(Exception):
    """Stands in for a psycopg error: what matters is its SQLSTATE."""

    def __init__(self, text: str, sqlstate: str):
        super().__init__(text)
        self.sqlstate = sqlstate


def _failing(error: Exception):
    def fail(*_args, **_kwargs):
        raise error

    return fail


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("SELECT 1", None, Exception("database is locked")),
        OperationalError("UPDATE event", None, Exception("database table is locked")),
        OperationalError(
            "UPDATE event", None, _PostgresError("canceling statement due to lock timeout", "55P03")
        ),
        OperationalError(
            "SELECT 1", None, _PostgresError("canceling statement due to statement timeout", "57014")
        ),
        PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00"),
    ],
    ids=["sqlite-locked", "sqlite-table-locked", "pg-lock-timeout", "pg-statement-timeout", "pool-timeout"],
)
def test_a_busy_database_answers_503_with_retry_after(client, monkeypatch, error):
    monkeypatch.setattr(events, "upcoming", _failing(error))
    response = client.get(UPCOMING)
    assert response.status_code == 503
    assert response.headers["retry-after"] == "2"
    assert response.json() == {"status": False, "message": site_msg.DATABASE_BUSY}


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("SELECT 1", None, Exception("disk I/O error")),
        RuntimeError("a bug"),
        KeyError("missing"),
    ],
    ids=["other-database-error", "runtime-error", "key-error"],
)
def test_any_other_failure_answers_a_json_500(client, monkeypatch, error):
    monkeypatch.setattr(events, "upcoming", _failing(error))
    response = client.get(UPCOMING)
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"status": False, "message": site_msg.SERVER_ERROR}
    assert "retry-after" not in response.headers
