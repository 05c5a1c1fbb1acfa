"""Shared helpers: a solved human check (as the ALTCHA widget sends it) and accounts in the database."""

import base64
import json
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date
from functools import cache

import pytest
from altcha import solve_challenge_v1
from sqlalchemy import event
from sqlmodel import Session, col, func, select

from cycling_site.db import engine
from cycling_site.models import Account, OutboxMessage
from cycling_site.services import accounts, human_check
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import FormErrors

DEMO_PASSWORD = "ridefast"


def solve_payload(challenge: dict | None = None) -> str:
    """Solves a challenge (a fresh one by default) and answers the widget's base64 JSON payload."""
    challenge = challenge or human_check.new_challenge()
    solution = solve_challenge_v1(
        challenge["challenge"], challenge["salt"], challenge["algorithm"], challenge["maxnumber"]
    )
    assert solution is not None, "the challenge has no solution"
    payload = {
        "algorithm": challenge["algorithm"],
        "challenge": challenge["challenge"],
        "number": solution.number,
        "salt": challenge["salt"],
        "signature": challenge["signature"],
    }
    return base64.b64encode(json.dumps(payload).encode()).decode()


def newest_mail(session: Session) -> str:
    """The body of the newest queued e-mail, read fresh from the database."""
    session.expire_all()
    mail = session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc())).first()
    assert mail is not None, "no e-mail queued"
    return mail.body


def from_mail(session: Session, pattern: str) -> str:
    """The first group of `pattern` in the newest e-mail, as the reader would pick out a link or code."""
    body = newest_mail(session)
    found = re.search(pattern, body, re.MULTILINE)
    assert found, body
    return found[1]


def reload(session: Session, account: Account) -> Account:
    session.expire_all()
    return session.get(Account, account.id)


def form_errors(call, *args, **kwargs) -> dict[str, str]:
    with pytest.raises(FormErrors) as caught:
        call(*args, **kwargs)
    return caught.value.errors


def code_error(call, *args, **kwargs) -> str:
    with pytest.raises(CodeError) as caught:
        call(*args, **kwargs)
    return str(caught.value)


def race(work: Callable[[Session, int], object], count_: int) -> list:
    """Runs `work(session, i)` in `count_` threads started together, each with its own database session:
    many requests at once against one balance."""
    start = threading.Barrier(count_)

    def run(number: int):
        with Session(engine, expire_on_commit=False) as own:
            start.wait()
            return work(own, number)

    with ThreadPoolExecutor(count_) as pool:
        return list(pool.map(run, range(count_)))


def count(session: Session, model: type) -> int:
    """Rows of a table, read fresh from the database."""
    session.expire_all()
    return session.exec(select(func.count()).select_from(model)).one()


@cache
def _password_hash(password: str) -> str:
    # Hashing costs ~0.1 s; one hash per password serves every test.
    return accounts.hash_password(password)


@pytest.fixture
def human_check_payload() -> Callable[[], str]:
    """Call it for a fresh solved human-check payload."""
    return solve_payload


@pytest.fixture
def make_account(session: Session) -> Callable[..., Account]:
    """Stores an account (password "ridefast" unless `password` is given); fields override the defaults."""

    def make(password: str = DEMO_PASSWORD, **overrides) -> Account:
        values = {
            "email": "rider@example.com",
            "firstname": "Layla",
            "lastname": "Haddad",
            "dob": date(1990, 5, 20),
            "country": 784,
            "gender": 1,
            "weight": 58.5,
            "height": 168,
            "email_verified": True,
        }
        values.update(overrides)
        account = Account(password_hash=_password_hash(password), **values)
        session.add(account)
        session.commit()
        session.refresh(account)
        return account

    return make


from tests.unit.connections_support import anyio_backend, provider, use_settings  # noqa: E402, F401


@contextmanager
def statement_threads(session: Session) -> Iterator[list[int]]:
    """The thread each SQL statement of `session`'s engine ran on, while the block runs."""
    threads: list[int] = []

    def record(*_args) -> None:
        threads.append(threading.get_ident())

    event.listen(session.get_bind(), "before_cursor_execute", record)
    try:
        yield threads
    finally:
        event.remove(session.get_bind(), "before_cursor_execute", record)
