"""Every event handler of every state, attacked the way a forged client would.

For each handler found in the app's state tree (new states are covered without anyone listing them),
twice: with no session (and a user-id cookie naming rider B), then with rider A's valid session. Each
time a fresh connection opens the page the state belongs to with B's ids in its path and query and every
client-storage var set to B's values, sets them to B's values again (the page load may have reset them),
then calls the handler with B's ids as its arguments. No update may carry B's private data, and B's data
must be unchanged at the end.
"""

import base64
import inspect
import typing
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime

import pytest
import reflex as rx
from reflex.state import State, UpdateVarsInternalState
from sqlmodel import Session, col, select

import cycling_site.cycling_site  # noqa: F401  (the app: every state and page registered)
from cycling_site.embedded.activity.models import Ride
from cycling_site.models import (
    Account,
    Balance,
    Connection,
    Currency,
    GemOrder,
    LedgerEntry,
    OwnedItem,
    PreVerification,
    Registration,
    ReviewDecision,
    RiderFile,
    Team,
    TeamMembership,
    ThirdPartyImport,
    WeightSubmission,
)
from cycling_site.models.events import Event, PhoneVerification
from cycling_site.models.wallet import WalletVerification, Withdrawal, WithdrawalMonth
from cycling_site.pages import BUILT
from cycling_site.routes import BY_NAME
from cycling_site.services import ledger, tokens
from cycling_site.services.ledger import Move
from cycling_site.state.mailbox import MailboxState
from tests.activity_support import add_ride, small_fit
from tests.e2e.helpers import new_account
from tests.e2e.live_connection import ROOT_STATE, LiveConnection, handler_name

# Only rider B has these; no attacker input contains them.
B_FIRSTNAME = "Zenobia"
B_LASTNAME = "Quillfeather"
B_RIDE_TITLE = "Zenobia dawn intervals"
B_ROUTE = "Quillfeather pass"
B_FILE_NAME = "quillfeather-passport.pdf"
B_APP_USER = "quillfeather-on-strava"
B_PHONE = "971509876543"
B_DOB = date(1987, 3, 14)
B_COINS = 987_654
B_GEM_ORDER = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b"
B_VIDEO = "https://videos.example.com/quillfeather-on-the-scale"
B_IMPORT_LINK = "https://www.strava.com/athletes/quillfeather-imports"
B_WALLET = "bc1qquillfeatherzenobiawalletb0000000000"
B_BINANCE = "quillfeather.binance@example.com"
B_SATOSHI = 7_654_321
B_TEAM = "Victim B Wheelers"  # a public team: its name is no secret
PARALLEL_CONNECTIONS = 8
UPDATE_VARS_STATE = UpdateVarsInternalState.get_full_name()


@dataclass(frozen=True)
class Victim:
    account_id: int
    uuid: str
    email: str
    file_id: str
    rider_file_id: int
    event_id: int
    fit_sample: str
    order_id: str
    team_id: int

    @property
    def secrets(self) -> list[str]:
        return [
            B_LASTNAME,
            B_RIDE_TITLE,
            B_ROUTE,
            B_FILE_NAME,
            B_APP_USER,
            B_IMPORT_LINK,
            B_PHONE,
            B_DOB.isoformat(),
            f"{B_COINS:,}",
            str(B_COINS),
            B_VIDEO,
            B_WALLET,
            B_BINANCE,
        ]


def _victim(db: Session) -> Victim:
    rider = new_account(
        db,
        "victim.b@example.com",
        firstname=B_FIRSTNAME,
        lastname=B_LASTNAME,
        dob=B_DOB,
        weight=61.5,
        ftp=240,
    )
    fit = small_fit(datetime(2026, 10, 3, 5, 30, tzinfo=UTC), watts=233, seconds=420)
    ride = add_ride(db, rider.uuid, fit, title=B_RIDE_TITLE, route_name=B_ROUTE)
    rider_file = RiderFile(
        account_id=rider.id,
        kind="proof",
        name=B_FILE_NAME,
        content_type="application/pdf",
        stored_as=f"{'b' * 32}.pdf",
        size=1234,
    )
    db.add(rider_file)
    db.add(Connection(account_id=rider.id, network="strava", external_user=B_APP_USER, access_token="b"))
    db.add(PhoneVerification(key="victim-b-phone-key", account_id=rider.id, phone=B_PHONE))
    ledger.move(db, Move(rider.id, Currency.coin, B_COINS, "welcome", "", f"welcome:{rider.id}"))
    ledger.move(db, Move(rider.id, Currency.btc, B_SATOSHI, "prize", "", f"prize:{rider.id}"))
    db.add(OwnedItem(account_id=rider.id, item_id="jersey-gulf-blue"))
    db.add(
        GemOrder(
            id=B_GEM_ORDER,
            account_id=rider.id,
            bundle_id="gems-100",
            gems=100,
            amount_fils=1900,
            provider_session_id="cs_test_victim_b",
        )
    )
    rider.verification_status = "pending"
    db.add(rider)
    db.add(
        PreVerification(
            account_id=rider.id,
            smart_trainer="Tacx Neo 2T",
            secondary_power_source="Smart bike",
            weight=61.5,
            height=170,
            video_link=B_VIDEO,
            strava_link=B_VIDEO,
        )
    )
    db.add(
        ThirdPartyImport(
            account_id=rider.id,
            migration_platform="Strava",
            total_ride_time=987_654,
            total_distance=4321.5,
            total_elevation=54_321,
            profile_link=B_IMPORT_LINK,
            status="approved",
        )
    )
    event = db.exec(select(Event).where(col(Event.accept)).order_by(col(Event.id))).first()
    db.commit()
    db.add(
        Registration(
            event_id=event.id,
            account_id=rider.id,
            first_name=B_FIRSTNAME,
            last_name=B_LASTNAME,
            email=rider.email,
            gender=1,
            dob=B_DOB,
            proof_file_id=rider_file.id,
            phone=B_PHONE,
        )
    )
    db.add(
        WeightSubmission(
            account_id=rider.id,
            event_id=event.id,
            type="pre_weight",
            weight_kg=61.5,
            proof_file_id=rider_file.id,
        )
    )
    db.add(
        WalletVerification(
            account_id=rider.id,
            binance_email=B_BINANCE,
            phone=f"+{B_PHONE}",
            wallet_address=B_WALLET,
            passport_file_id=rider_file.id,
            status="approved",
        )
    )
    db.add(
        Withdrawal(
            account_id=rider.id,
            amount=1_000_000,
            fee=15_000,
            email=B_BINANCE,
            wallet_address=B_WALLET,
            month=f"{datetime.now(UTC):%Y-%m}",
        )
    )
    db.add(WithdrawalMonth(account_id=rider.id, month=f"{datetime.now(UTC):%Y-%m}", used=1))
    # B owns a public team and rides for it.
    team = Team(name=B_TEAM, name_key=B_TEAM.lower(), description="B's own", country="AE", owner_id=rider.id)
    db.add(team)
    db.flush()
    db.add(TeamMembership(team_id=team.id, account_id=rider.id))
    db.commit()
    # A run of the original file's bytes, as a download would carry it (base64, 3-byte aligned).
    sample = base64.b64encode(fit[300:360]).decode()
    ids = (rider.id, rider.uuid, rider.email, ride.file_id, rider_file.id, event.id)
    return Victim(*ids, sample, B_GEM_ORDER, team.id)


def _snapshot(db: Session, victim: Victim) -> dict:
    """Everything of B's that no one else may change."""
    db.expire_all()

    def rows(model, *where) -> list[dict]:
        return [row.model_dump() for row in db.exec(select(model).where(*where)).all()]

    return {
        "account": db.get(Account, victim.account_id).model_dump(),
        "rides": rows(Ride, Ride.rider_uuid == victim.uuid),
        "files": rows(RiderFile, RiderFile.account_id == victim.account_id),
        "registrations": rows(Registration, Registration.account_id == victim.account_id),
        "connections": rows(Connection, Connection.account_id == victim.account_id),
        "phones": rows(PhoneVerification, PhoneVerification.account_id == victim.account_id),
        "ledger": rows(LedgerEntry, LedgerEntry.account_id == victim.account_id),
        "balances": rows(Balance, Balance.account_id == victim.account_id),
        "gem orders": rows(GemOrder, GemOrder.account_id == victim.account_id),
        "garage": rows(OwnedItem, OwnedItem.account_id == victim.account_id),
        "pre-verifications": rows(PreVerification, PreVerification.account_id == victim.account_id),
        "decisions": rows(ReviewDecision, ReviewDecision.rider_id == victim.account_id),
        "imports": rows(ThirdPartyImport, ThirdPartyImport.account_id == victim.account_id),
        "weight submissions": rows(WeightSubmission, WeightSubmission.account_id == victim.account_id),
        "wallet verifications": rows(WalletVerification, WalletVerification.account_id == victim.account_id),
        "withdrawals": rows(Withdrawal, Withdrawal.account_id == victim.account_id),
        "withdrawal months": rows(WithdrawalMonth, WithdrawalMonth.account_id == victim.account_id),
        "teams": rows(Team, Team.owner_id == victim.account_id),
        "team memberships": rows(TeamMembership, TeamMembership.account_id == victim.account_id),
    }


# --- What the attacker sends --------------------------------------------------------------------------


def _all_states() -> list[type]:
    """The app's state tree: every substate is a subclass of its parent state."""
    found, waiting = [], [State]
    while waiting:
        state = waiting.pop()
        found.append(state)
        waiting.extend(state.__subclasses__())
    return found


def _forged_storage(victim: Victim) -> dict[str, str]:
    """Every cookie and local- or session-storage var of every state, set to B's values."""
    forged = {}
    for state in _all_states():
        for name in state.base_vars:
            if state._is_client_storage(name):
                value = victim.email if "email" in name else victim.uuid
                forged[f"{state.get_full_name()}.{name}_rx_state_"] = value
    return forged


def _page_of(state: type) -> str:
    """The route whose page loads this state (B's ids in its parameters), or a rider-only page."""
    for route_name, (_component, loads) in BUILT.items():
        if any(load.state is state for load in loads):
            return BY_NAME[route_name].path
    return "/user/activities"


def _path(route: str, victim: Victim) -> str:
    values = {
        "[file_id]": victim.file_id,
        "[id]": str(victim.event_id),
        "[code]": "forged-code",
        "[network]": "strava",
        "[[...splat]]": "web",
        "[slug]": "forged",
        "[ruleset]": "zwift-ruleset",
    }
    for placeholder, value in values.items():
        route = route.replace(placeholder, value)
    return route


def _query(victim: Victim) -> dict[str, str]:
    return {
        "childUserId": victim.uuid,
        "userAge": "12",
        "to": victim.email,
        "key": "victim-b-phone-key",
        "code": "forged-code",
        "es": "forged-code",
        "state": "forged-state",
        "eventId": str(victim.event_id),
        "orderId": victim.order_id,
        "payment_result": "success",
    }


def _form(victim: Victim) -> dict[str, str]:
    """A form as any page could post it, aimed at B."""
    return {
        "email": victim.email,
        "to": victim.email,
        "parentEmail": "attacker@example.com",
        "password": "not-the-password",
        "current_password": "not-the-password",
        "repeatPassword": "new-password-1",
        "username": "b-on-strava",
        "firstname": "Hijacked",
        "lastname": "Hijacked",
        "uuid": victim.uuid,
        "user_id": victim.uuid,
        "file_id": victim.file_id,
        "key": str(victim.rider_file_id),
        "event_id": str(victim.event_id),
        "otp": "123456",
    }


def _argument(name: str, annotation, victim: Victim, state: type):
    origin = typing.get_origin(annotation) or annotation
    if name == "vars":
        return _forged_storage(victim)
    if name == "var_name":
        return next(iter(state.base_vars), "router")
    if origin is dict or name == "form_data":
        return _form(victim)
    if origin is list:
        return [victim.file_id]
    if annotation is bool:
        return True
    if annotation is int:
        return victim.rider_file_id
    return {
        "file_id": victim.file_id,
        "kind": "proof",
        "network": "strava",
        "event_id": str(victim.event_id),
        "day_id": "1",
        "reasons": "file-too-large",
        "codes": "too-large",
        "order_id": victim.order_id,
        "item_id": "frame-falcon-aero",
        "bundle_id": "gems-100",
        "team_id": str(victim.team_id),
    }.get(name, victim.uuid)


def _upload_param(handler) -> str | None:
    """The parameter an upload handler gets its files in (a list of files, or a stream of chunks)."""
    for name, annotation in handler._get_type_hints().items():
        if annotation is rx.UploadChunkIterator or (
            typing.get_origin(annotation) is list and typing.get_args(annotation)[0] is rx.UploadFile
        ):
            return name
    return None


def _calls(victim: Victim) -> list[tuple[type, str, dict, str | None]]:
    """(state, handler, payload, upload parameter) for every handler of every state but the demo mailbox,
    whose demo-mode page shows every message by design (production has none: tests/unit/test_dev_pages.py)."""
    calls = []
    for state in _all_states():
        if state is MailboxState:
            continue
        for name, handler in state.event_handlers.items():
            hints = handler._get_type_hints()
            upload = _upload_param(handler)
            payload = {
                param: _argument(param, hints.get(param, str), victim, state)
                for param in list(inspect.signature(handler.fn).parameters)[1:]
                if param != upload
            }
            calls.append((state, name, payload, upload))
    return calls


# --- The attack ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def victim(site_engine) -> Victim:
    with Session(site_engine, expire_on_commit=False) as db:
        return _victim(db)


@pytest.fixture(scope="module")
def attacker(site_engine) -> Account:
    with Session(site_engine, expire_on_commit=False) as db:
        return new_account(db, "attacker.a@example.com", firstname="Ada", lastname="Attacker")


def _attack(site_url: str, cookies: dict[str, str], victim: Victim, call) -> tuple[str, str]:
    state, name, payload, upload = call
    forged = _forged_storage(victim)
    connection = LiveConnection(site_url, cookies, _path(_page_of(state), victim), _query(victim), forged)
    full_name = handler_name(state.get_full_name(), name)
    try:
        connection.open()
        # The page load may have reset them: forged again, as the browser syncs storage, right before. A
        # socket event follows in order; an upload comes over HTTP, so it waits until the forgery is in.
        forge = handler_name(UPDATE_VARS_STATE, "update_vars_internal")
        connection.send(forge, {"vars": forged}, wait=bool(upload))
        if upload:
            connection.upload(full_name, payload, "forged.fit", small_fit(datetime(2026, 10, 4, tzinfo=UTC)))
        else:
            connection.send(full_name, payload)
    finally:
        connection.close()
    return full_name, connection.everything_received()


@pytest.mark.parametrize("who", ["no session", "rider A's session"])
def test_no_handler_gives_away_or_changes_another_riders_data(site, site_engine, victim, attacker, who):
    calls = _calls(victim)
    assert len(calls) > 80, "the state tree was not found"
    assert any(state.get_full_name() == ROOT_STATE for state, *_ in calls)
    with Session(site_engine) as db:
        before = _snapshot(db, victim)

    def cookies() -> dict[str, str]:
        if who == "no session":
            return {tokens.USER_ID_COOKIE: victim.uuid}
        # A fresh token for each connection: a handler may end the session it runs in.
        token = tokens.issue_session_token(attacker, remember=True).token
        return {tokens.TOKEN_COOKIE: token, tokens.USER_ID_COOKIE: attacker.uuid}

    with ThreadPoolExecutor(PARALLEL_CONNECTIONS) as pool:
        results = list(pool.map(lambda call: _attack(site.url, cookies(), victim, call), calls))

    leaks = [
        f"{handler} sent {secret!r}"
        for handler, received in results
        for secret in [*victim.secrets, victim.fit_sample]
        if secret.lower() in received.lower()
    ]
    assert leaks == [], "\n".join(leaks)
    with Session(site_engine) as db:
        assert _snapshot(db, victim) == before
    # The attack really ran: every connection opened and was answered.
    assert all(received != "[]" for _handler, received in results)
