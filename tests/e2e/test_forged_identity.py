"""Every event handler of every state, attacked the way a forged client would.

For each handler found in the app's state tree (new states are covered without anyone listing them), by
each actor: no session (and a user-id cookie naming rider B), rider A, a kid, and the officers of the
consoles they do not serve (race control at finance's, finance at race control's; admins serve both).
Each time a fresh connection opens the page the state belongs to with B's ids in its path and query and
every client-storage var set to B's values, sets them to B's values again (the page load may have reset
them), then calls the handler with B's ids as its arguments. A console's decision first chooses the queue
and asks for a real waiting item of B's or of rider C's, so a decision that got past a missing role check
would land on it; an officer who loses the role between asking and deciding (the last line a decision
has) is an actor too. No update may carry B's or C's private data, and no rider's data may change.
"""

import base64
import inspect
import typing
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

import pytest
import reflex as rx
from reflex.state import State, UpdateVarsInternalState
from sqlalchemy import Engine
from sqlmodel import Session, col, select, update

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
    Role,
    Team,
    TeamMembership,
    ThirdPartyImport,
    WeightSubmission,
)
from cycling_site.models.events import Event, PhoneVerification, RegistrationStatus
from cycling_site.models.race_control import ReviewKind
from cycling_site.models.wallet import PrizeCredit, WalletVerification, Withdrawal, WithdrawalMonth
from cycling_site.pages import BUILT
from cycling_site.routes import BY_NAME
from cycling_site.services import finance, ledger, race_control, review_queues, tokens, wallet
from cycling_site.services.ledger import Move
from cycling_site.state.dashboard import DashboardState
from cycling_site.state.finance import FinanceState
from cycling_site.state.mailbox import MailboxState
from cycling_site.state.race_control import RaceControlState
from cycling_site.state.review_console import ReviewConsoleBase
from tests import file_samples
from tests.activity_support import add_ride, small_fit
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
B_SATOSHI = 9_876_500
B_WITHDRAWAL = 1_357_900
B_WITHDRAWAL_FEE = 15_000
B_TEAM = "Victim B Wheelers"  # a public team: its name is no secret
# Rider C, whose items wait for race control and finance beside B's.
C_FIRSTNAME = "Cassius"
C_LASTNAME = "Marlowbrook"
C_FILE_NAME = "marlowbrook-scale.jpg"
C_VIDEO = "https://videos.example.com/marlowbrook-on-the-scale"
C_IMPORT_LINK = "https://www.strava.com/athletes/marlowbrook-imports"
C_WALLET = "bc1qmarlowbrookcassiuswalletc0000000000"
C_BINANCE = "marlowbrook.binance@example.com"
C_PHONE = "971505550199"
PARALLEL_CONNECTIONS = 12
UPDATE_VARS_STATE = UpdateVarsInternalState.get_full_name()
# What an officer sends with a decision: all a decision may need (a reason, a payout's id, a CAT).
DECISION_FORM = {"reason": "Forged decision", "transaction_id": "f0" * 32, "category": "1"}
# The kinds an upload handler with a `kind` takes: the registration's documents, the wallet's images.
UPLOAD_KINDS = ("proof", "passport_proof", "binance_screenshot")


@dataclass(frozen=True)
class Console:
    """An officer console: the roles it serves and the queues its decisions go to."""

    roles: frozenset[str]
    queues: Collection[str]


CONSOLES = {
    RaceControlState: Console(race_control.REVIEWERS, review_queues.QUEUES),
    FinanceState: Console(finance.OFFICERS, finance.QUEUES),
}


@dataclass(frozen=True)
class Actor:
    """Who attacks. No role: no session at all. An officer attacks the consoles its role does not serve;
    one that `loses_role` attacks its own console and loses the role before each attack's last event."""

    role: str | None = Role.rider
    kid: bool = False
    loses_role: bool = False

    def attacks(self, state: type) -> bool:
        if self.role in (None, Role.rider):
            return True
        console = CONSOLES.get(state)
        return console is not None and (self.role in console.roles) == self.loses_role


ACTORS = {
    "no session": Actor(role=None),
    "rider A": Actor(),
    "a kid": Actor(kid=True),
    "race control at finance": Actor(Role.race_control),
    "finance at race control": Actor(Role.finance),
    "race control losing its role": Actor(Role.race_control, loses_role=True),
    "finance losing its role": Actor(Role.finance, loses_role=True),
}


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
    # A past event B rode (approved): where a prize is credited.
    prize_event_id: int
    # (queue kind, item id) of B's and C's items waiting for a decision.
    waiting: tuple[tuple[str, int], ...]
    # What B's wallet shows that no one else may see: the balance, the request number and its amounts.
    wallet_texts: tuple[str, ...]

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
            *self.wallet_texts,
            C_LASTNAME,
            C_FILE_NAME,
            C_VIDEO,
            C_IMPORT_LINK,
            C_WALLET,
            C_BINANCE,
            C_PHONE,
        ]


def _account(db: Session, email: str, **fields) -> Account:
    """An account stored directly (no password: these sign in with a session token only)."""
    values = {"password_hash": "!", "firstname": "Test", "lastname": "Rider", "dob": date(1990, 5, 5)}
    account = Account(email=email, email_verified=True, **{**values, **fields})
    db.add(account)
    db.commit()
    return account


def _file(db: Session, rider: Account, kind: str, name: str, stored_as: str) -> RiderFile:
    content_type = "application/pdf" if name.endswith(".pdf") else "image/jpeg"
    row = RiderFile(
        account_id=rider.id, kind=kind, name=name, content_type=content_type, stored_as=stored_as, size=1234
    )
    db.add(row)
    db.flush()
    return row


def _rider_c(db: Session, event: Event, prize_event: Event) -> list[tuple[str, int]]:
    """Rider C, with an item in every queue B has none waiting in (an import, a wallet verification) and in
    the others too."""
    rider = _account(db, "victim.c@example.com", firstname=C_FIRSTNAME, lastname=C_LASTNAME)
    proof = _file(db, rider, "weight_proof", C_FILE_NAME, f"{'c' * 32}.jpg")
    passport = _file(db, rider, "passport_proof", C_FILE_NAME, f"{'d' * 32}.jpg")
    rider.verification_status = "pending"
    db.add(rider)
    rows = {
        ReviewKind.pre_verification: PreVerification(
            account_id=rider.id,
            smart_trainer="Wahoo Kickr",
            secondary_power_source="Power meter pedals",
            weight=74.5,
            height=181,
            video_link=C_VIDEO,
            strava_link=C_VIDEO,
        ),
        ReviewKind.weight_submission: WeightSubmission(
            account_id=rider.id, event_id=event.id, type="pre_weight", weight_kg=74.5, proof_file_id=proof.id
        ),
        ReviewKind.third_party_import: ThirdPartyImport(
            account_id=rider.id,
            migration_platform="Strava",
            total_ride_time=123_456,
            total_distance=2345.5,
            total_elevation=12_345,
            profile_link=C_IMPORT_LINK,
            proof_file_ids=[proof.id],
        ),
        ReviewKind.registration: Registration(
            event_id=event.id,
            account_id=rider.id,
            first_name=C_FIRSTNAME,
            last_name=C_LASTNAME,
            email=rider.email,
            gender=0,
            dob=date(1991, 8, 21),
            phone=C_PHONE,
        ),
        ReviewKind.wallet_verification: WalletVerification(
            account_id=rider.id,
            binance_email=C_BINANCE,
            phone=f"+{C_PHONE}",
            wallet_address=C_WALLET,
            passport_file_id=passport.id,
            screenshot_file_ids=[passport.id],
        ),
    }
    db.add_all(rows.values())
    db.add(_rode(rider, prize_event))
    db.commit()
    return [(kind, row.id) for kind, row in rows.items()]


def _rode(rider: Account, event: Event) -> Registration:
    """An approved registration for a past event: the rider may be credited its prize."""
    return Registration(
        event_id=event.id,
        account_id=rider.id,
        status=RegistrationStatus.approved,
        first_name=rider.firstname,
        last_name=rider.lastname,
        email=rider.email,
        gender=rider.gender,
    )


def _victim(db: Session) -> Victim:
    rider = _account(
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
    rider_file = _file(db, rider, "proof", B_FILE_NAME, f"{'b' * 32}.pdf")
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
    pre_verification = PreVerification(
        account_id=rider.id,
        smart_trainer="Tacx Neo 2T",
        secondary_power_source="Smart bike",
        weight=61.5,
        height=170,
        video_link=B_VIDEO,
        strava_link=B_VIDEO,
    )
    db.add(pre_verification)
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
    past = select(Event).where(col(Event.starts_at) < datetime.now(UTC)).order_by(col(Event.starts_at).desc())
    prize_event = db.exec(past).first()
    db.commit()
    registration = Registration(
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
    weight = WeightSubmission(
        account_id=rider.id,
        event_id=event.id,
        type="pre_weight",
        weight_kg=61.5,
        proof_file_id=rider_file.id,
    )
    db.add_all([registration, weight, _rode(rider, prize_event)])
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
    # A withdrawal waiting for finance, its amount and fee held as the wallet holds them.
    withdrawal = Withdrawal(
        account_id=rider.id,
        amount=B_WITHDRAWAL,
        fee=B_WITHDRAWAL_FEE,
        email=B_BINANCE,
        wallet_address=B_WALLET,
        month=f"{datetime.now(UTC):%Y-%m}",
    )
    db.add(withdrawal)
    db.flush()
    hold = Move(
        rider.id,
        Currency.btc,
        -withdrawal.total,
        "withdrawal",
        f"withdrawal:{withdrawal.id}",
        wallet.hold_key(withdrawal.id),
    )
    ledger.move(db, hold)
    db.add(WithdrawalMonth(account_id=rider.id, month=f"{datetime.now(UTC):%Y-%m}", used=1))
    # B owns a public team and rides for it.
    team = Team(name=B_TEAM, name_key=B_TEAM.lower(), description="B's own", country="AE", owner_id=rider.id)
    db.add(team)
    db.flush()
    db.add(TeamMembership(team_id=team.id, account_id=rider.id))
    db.commit()
    waiting = [
        (ReviewKind.pre_verification, pre_verification.id),
        (ReviewKind.weight_submission, weight.id),
        (ReviewKind.registration, registration.id),
        (ReviewKind.withdrawal, withdrawal.id),
        *_rider_c(db, event, prize_event),
    ]
    wallet_texts = (
        wallet.btc_text(B_SATOSHI - withdrawal.total),
        wallet.request_no(withdrawal),
        wallet.btc_text(withdrawal.amount),
        wallet.btc_text(withdrawal.total),
    )
    # A run of the original file's bytes, as a download would carry it (base64, 3-byte aligned).
    sample = base64.b64encode(fit[300:360]).decode()
    ids = (rider.id, rider.uuid, rider.email, ride.file_id, rider_file.id, event.id)
    return Victim(*ids, sample, B_GEM_ORDER, team.id, prize_event.id, tuple(waiting), wallet_texts)


def _snapshot(db: Session, actor_ids: Collection[int]) -> dict:
    """Every rider's rows that a handler could touch (B's, C's, the demo's), but the attacker's own."""
    db.expire_all()
    uuids = db.exec(select(Account.uuid).where(col(Account.id).in_(actor_ids))).all()

    def rows(model, owner) -> list[dict]:
        query = select(model).where(col(owner).not_in(uuids if owner is Ride.rider_uuid else actor_ids))
        return [row.model_dump() for row in db.exec(query.order_by(*model.__table__.primary_key.columns))]

    return {
        "accounts": rows(Account, Account.id),
        "rides": rows(Ride, Ride.rider_uuid),
        "files": rows(RiderFile, RiderFile.account_id),
        "registrations": rows(Registration, Registration.account_id),
        "connections": rows(Connection, Connection.account_id),
        "phones": rows(PhoneVerification, PhoneVerification.account_id),
        "ledger": rows(LedgerEntry, LedgerEntry.account_id),
        "balances": rows(Balance, Balance.account_id),
        "gem orders": rows(GemOrder, GemOrder.account_id),
        "garage": rows(OwnedItem, OwnedItem.account_id),
        "pre-verifications": rows(PreVerification, PreVerification.account_id),
        "decisions": rows(ReviewDecision, ReviewDecision.rider_id),
        "imports": rows(ThirdPartyImport, ThirdPartyImport.account_id),
        "weight submissions": rows(WeightSubmission, WeightSubmission.account_id),
        "wallet verifications": rows(WalletVerification, WalletVerification.account_id),
        "withdrawals": rows(Withdrawal, Withdrawal.account_id),
        "withdrawal months": rows(WithdrawalMonth, WithdrawalMonth.account_id),
        "prize credits": rows(PrizeCredit, PrizeCredit.account_id),
        "teams": rows(Team, Team.owner_id),
        "team memberships": rows(TeamMembership, TeamMembership.account_id),
    }


# --- What the attacker sends --------------------------------------------------------------------------


def _all_states() -> list[type]:
    """The app's state tree: every substate is a subclass of its parent state. A mixin's handlers run in
    the states built on it; a state built on a mixin is found under both, and counted once."""
    found, waiting = [], [State]
    while waiting:
        state = waiting.pop()
        if state not in found and not state._mixin:
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


def _form(victim: Victim, event_id: int) -> dict[str, str]:
    """A form as any page could post it, aimed at B (a decision's and a prize's fields too)."""
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
        "account_id": str(victim.account_id),
        "amount": "0.5",
        "file_id": victim.file_id,
        "key": str(victim.rider_file_id),
        "event_id": str(event_id),
        "otp": "123456",
        **DECISION_FORM,
    }


def _argument(name: str, annotation, victim: Victim, state: type):
    origin = typing.get_origin(annotation) or annotation
    if name == "vars":
        return _forged_storage(victim)
    if name == "var_name":
        return next(iter(state.base_vars), "router")
    if origin is dict or name == "form_data":
        return _form(victim, victim.event_id)
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


@dataclass(frozen=True)
class Attack:
    """Events sent in order on one connection: the last one is the attack, those before it choose what it
    acts on (a console's queue and item, as an officer's clicks do)."""

    state: type
    steps: tuple[tuple[str, dict], ...]
    # The last step's upload parameter and the file it sends.
    upload: str | None = None
    sample: tuple[str, bytes] = ("", b"")
    # The console item asked for: the decision must land on it once a role check is gone.
    item_id: int | None = None


def _sample(state: type, name: str) -> tuple[str, bytes]:
    """A file the handler takes, so only who is asking can refuse it: rides are FIT files, every other upload
    (documents, weigh-in proof, wallet images, import proofs, the profile photo) takes a JPEG."""
    if state is DashboardState and name == "upload_ride":
        return "ride.fit", small_fit(datetime(2026, 10, 4, tzinfo=UTC))
    return "photo.jpg", file_samples.jpeg()


def _attacks(victim: Victim) -> list[Attack]:
    """Every handler of every state but the demo mailbox, whose demo-mode page shows every message by design
    (production has none: tests/unit/test_dev_pages.py). A console's decision comes once per waiting item of
    B's and C's in its queues; an upload with a `kind` once per kind of upload."""
    attacks = []
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
            if name == "credit_prize":
                payload["form_data"] = _form(victim, victim.prize_event_id)
            if state in CONSOLES and name == "decide":
                attacks.extend(
                    Attack(
                        state,
                        (
                            ("choose_queue", {"kind": kind}),
                            ("ask", {"item_id": str(item_id), "approve": True}),
                            (name, payload),
                        ),
                        item_id=item_id,
                    )
                    for kind, item_id in victim.waiting
                    if kind in CONSOLES[state].queues
                )
            elif upload:
                kinds = UPLOAD_KINDS if "kind" in payload else (None,)
                attacks.extend(
                    Attack(
                        state,
                        ((name, {**payload, "kind": kind} if kind else payload),),
                        upload,
                        _sample(state, name),
                    )
                    for kind in kinds
                )
            else:
                attacks.append(Attack(state, ((name, payload),)))
    return attacks


# --- The attack ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def victim(site_engine) -> Victim:
    with Session(site_engine, expire_on_commit=False) as db:
        return _victim(db)


@dataclass
class Answer:
    handler: str
    # What came after the attacker held no role it may use here (an officer losing its role: after that).
    received: str
    answered: bool
    # Whether the item asked for was on the attacker's console (only an officer ever has it).
    item_asked: bool = False


@dataclass
class Attacker:
    """The actor's accounts: one for every attack of an officer losing its role (the role goes per
    connection), else one for all."""

    actor: Actor
    engine: Engine
    accounts: list[Account] = field(default_factory=list)

    def cookies(self, account: Account | None, victim: Victim) -> dict[str, str]:
        if account is None:
            return {tokens.USER_ID_COOKIE: victim.uuid}
        # A fresh token for each connection: a handler may end the session it runs in.
        token = tokens.issue_session_token(account, remember=True).token
        return {tokens.TOKEN_COOKIE: token, tokens.USER_ID_COOKIE: account.uuid}

    def lose_role(self, account: Account) -> None:
        with Session(self.engine) as db:
            db.exec(update(Account).where(col(Account.id) == account.id).values(role=Role.rider))
            db.commit()


def _attacker(site_engine, actor: Actor, name: str, count: int) -> Attacker:
    attacker = Attacker(actor, site_engine)
    if actor.role is None:
        return attacker
    kid = {
        "is_kid": True,
        "parent_approved": True,
        "parent_email": "parent.k@example.com",
        "dob": date(2014, 2, 2),
    }
    slug = name.replace(" ", "-").replace("'", "")
    with Session(site_engine, expire_on_commit=False) as db:
        for number in range(count if actor.loses_role else 1):
            fields = kid if actor.kid else {}
            account = _account(
                db,
                f"attacker.{slug}.{number}@example.com",
                firstname="Ada",
                lastname="Attacker",
                role=actor.role,
                **fields,
            )
            attacker.accounts.append(account)
    return attacker


def _attack(
    site_url: str, attacker: Attacker, account: Account | None, victim: Victim, attack: Attack
) -> Answer:
    forged = _forged_storage(victim)
    state_name = attack.state.get_full_name()
    cookies = attacker.cookies(account, victim)
    connection = LiveConnection(
        site_url, cookies, _path(_page_of(attack.state), victim), _query(victim), forged
    )
    *choices, (name, payload) = attack.steps
    full_name = handler_name(state_name, name)
    asked_for = f'"deciding_id_rx_state_": "{attack.item_id}"'
    try:
        connection.open()
        for number, (choice, choice_payload) in enumerate(choices, 1):
            connection.send(handler_name(state_name, choice), choice_payload, wait=number == len(choices))
        if attacker.actor.loses_role and attack.item_id is not None:
            # A quiet moment is no proof under load: the queue's list may still be on its way, and only
            # what comes after the role went counts.
            connection.wait_for(asked_for)
        asked = connection.everything_received()
        if attacker.actor.loses_role:
            attacker.lose_role(account)
            connection.forget_received()
        # The page load may have reset them: forged again, as the browser syncs storage, right before. A
        # socket event follows in order; an upload comes over HTTP, so it waits until the forgery is in.
        forge = handler_name(UPDATE_VARS_STATE, "update_vars_internal")
        connection.send(forge, {"vars": forged}, wait=bool(attack.upload))
        if attack.upload:
            connection.upload(full_name, payload, *attack.sample)
        else:
            connection.send(full_name, payload)
    finally:
        connection.close()
    item_asked = attack.item_id is not None and asked_for in asked
    received = connection.everything_received()
    return Answer(full_name, received, received != "[]" or asked != "[]", item_asked)


@pytest.mark.parametrize("who", list(ACTORS))
def test_no_handler_gives_away_or_changes_another_riders_data(site, site_engine, victim, who):
    actor = ACTORS[who]
    attacks = _attacks(victim)
    assert len(attacks) > 80, "the state tree was not found"
    assert any(attack.state.get_full_name() == ROOT_STATE for attack in attacks)
    consoles = {state for state in _all_states() if issubclass(state, ReviewConsoleBase)}
    assert consoles == set(CONSOLES), "a console without its roles and queues in CONSOLES"
    attacks = [attack for attack in attacks if actor.attacks(attack.state)]
    attacker = _attacker(site_engine, actor, who, len(attacks))
    actor_ids = [account.id for account in attacker.accounts]
    with Session(site_engine) as db:
        before = _snapshot(db, actor_ids)

    def run(numbered: tuple[int, Attack]) -> Answer:
        number, attack = numbered
        account = attacker.accounts[number % len(attacker.accounts)] if attacker.accounts else None
        return _attack(site.url, attacker, account, victim, attack)

    with ThreadPoolExecutor(PARALLEL_CONNECTIONS) as pool:
        answers = list(pool.map(run, enumerate(attacks)))

    leaks = [
        f"{answer.handler} sent {secret!r}"
        for answer in answers
        for secret in [*victim.secrets, victim.fit_sample]
        if secret.lower() in answer.received.lower()
    ]
    assert leaks == [], "\n".join(leaks)
    with Session(site_engine) as db:
        after = _snapshot(db, actor_ids)
    changed = [name for name in before if after[name] != before[name]]
    assert changed == [], f"changed: {changed}"
    # The attack really ran: every connection opened and was answered, and an officer losing its role had
    # the item on screen, as its decision's dialog, when the role went.
    assert all(answer.answered for answer in answers)
    assert any(attack.item_id for attack in attacks)
    if who == "rider A":
        # A's files were taken on their content and kept as A's: only who was asking kept them from B.
        with Session(site_engine) as db:
            kinds = set(db.exec(select(RiderFile.kind).where(RiderFile.account_id == actor_ids[0])))
            assert kinds >= {"proof", "passport_proof", "binance_screenshot", "import_proof"}
            assert db.get(Account, actor_ids[0]).avatar
    if actor.kid:
        # Kids have no wallet: its documents are not kept for them either.
        with Session(site_engine) as db:
            kinds = set(db.exec(select(RiderFile.kind).where(RiderFile.account_id == actor_ids[0])))
            assert kinds.isdisjoint({"passport_proof", "binance_screenshot"})
    if actor.loses_role:
        assert all(
            answer.item_asked for answer, attack in zip(answers, attacks, strict=True) if attack.item_id
        )
