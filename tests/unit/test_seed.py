"""Demo data: the six demo accounts, each able to sign in with the demo password."""

from datetime import date, timedelta

import pytest
from sqlmodel import select

from cycling_site.embedded.activity.models import Ride, RiderCurve
from cycling_site.models import Account, Currency, OwnedItem, PreVerification, Role
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event
from cycling_site.seed import (
    DEMO_IMPORTER,
    DEMO_KIT,
    DEMO_PASSWORD,
    DEMO_SHOPPER,
    DEMO_WEIGHER,
    seed_demo,
    seed_demo_events,
    seed_demo_import,
    seed_demo_reviews,
    seed_demo_rides,
    seed_demo_shop,
    seed_demo_teams,
    seed_demo_wallets,
    seed_demo_weigh_ins,
)
from cycling_site.services import finance, ledger, teams, wallet, weigh_ins
from cycling_site.services import third_party_import as imports
from cycling_site.services.accounts import login
from cycling_site.services.shop_catalogue import ITEMS_BY_ID
from tests.unit.conftest import count, solve_payload

TODAY = date(2025, 6, 15)


@pytest.fixture
def seeded(session):
    assert seed_demo(session) is True
    return {account.email: account for account in session.exec(select(Account))}


def test_seed_creates_the_demo_accounts(seeded):
    assert DEMO_PASSWORD == "ridefast"
    assert sorted(seeded) == [
        "admin@example.com",
        "finance@example.com",
        "kid@example.com",
        "newkid@example.com",
        "racecontrol@example.com",
        "rider@example.com",
    ]
    rider, kid, newkid = seeded["rider@example.com"], seeded["kid@example.com"], seeded["newkid@example.com"]
    assert (rider.is_kid, rider.role) == (False, Role.rider)
    assert (kid.is_kid, kid.parent_approved) == (True, True)
    assert (newkid.is_kid, newkid.parent_approved) == (True, False)
    assert seeded["racecontrol@example.com"].role == Role.race_control
    assert seeded["admin@example.com"].role == Role.admin
    assert seeded["finance@example.com"].role == Role.finance
    assert all(account.password_hash != DEMO_PASSWORD for account in seeded.values())


def test_each_demo_account_can_log_in(session, seeded):
    expected = {
        "rider@example.com": "token",
        "kid@example.com": "token",
        "newkid@example.com": "consent",
        "racecontrol@example.com": "token",
        "finance@example.com": "token",
        "admin@example.com": "token",
    }
    for email, kind in expected.items():
        result = login(session, email, DEMO_PASSWORD, True, solve_payload(), "192.0.2.1", today=TODAY)
        assert (email, result.kind) == (email, kind)
        assert result.account.uuid == seeded[email].uuid
    # Sara (born 2015-09-21) is 9: the consent screen gets her age.
    newkid = login(
        session, "newkid@example.com", DEMO_PASSWORD, True, solve_payload(), "192.0.2.1", today=TODAY
    )
    assert newkid.user_age == 9


def test_second_seed_does_nothing(session, seeded):
    assert seed_demo(session) is False
    assert count(session, Account) == 6


def test_seed_leaves_a_database_with_accounts_alone(session, make_account):
    make_account(email="someone@example.com")
    assert seed_demo(session) is False
    assert count(session, Account) == 1


def test_demo_rides_are_ingested_for_the_riding_demo_accounts(session, seeded):
    written = seed_demo_rides(session, utcnow())
    rides = session.exec(select(Ride)).all()
    assert written == len(rides) > 50
    by_rider = {account.uuid: email for email, account in seeded.items()}
    riders = {by_rider[ride.rider_uuid] for ride in rides}
    assert riders == {"rider@example.com", "kid@example.com"}
    assert {ride.type for ride in rides} == {"ride", "workout", "event"}
    assert all(ride.title and ride.route_name for ride in rides)
    assert session.get(RiderCurve, seeded["rider@example.com"].uuid) is not None


def test_the_demo_rider_has_a_purse_and_a_starter_kit_on_the_ledger(session, seeded):
    seed_demo_shop(session)
    rider = seeded[DEMO_SHOPPER]
    assert ledger.balances(session, rider.id) == {Currency.coin: 3500, Currency.gem: 120, Currency.btc: 0}
    assert ledger.entries_total(session, rider.id, Currency.coin) == 3500
    owned = session.exec(select(OwnedItem.item_id).where(OwnedItem.account_id == rider.id)).all()
    assert sorted(owned) == sorted(DEMO_KIT)
    assert all(item_id in ITEMS_BY_ID for item_id in owned)
    kid = seeded["kid@example.com"]
    assert ledger.balances(session, kid.id)[Currency.coin] == 0


def test_race_control_has_pre_verifications_waiting(session, seeded):
    assert seed_demo_reviews(session) == 2
    waiting = session.exec(select(PreVerification)).all()
    assert [row.status for row in waiting] == ["pending", "pending"]
    applicants = [session.get(Account, row.account_id) for row in waiting]
    assert {account.verification_status for account in applicants} == {"pending"}
    for account in applicants:
        result = login(session, account.email, DEMO_PASSWORD, True, solve_payload(), "192.0.2.1", today=TODAY)
        assert result.kind == "token"


def test_one_import_waits_for_race_control_and_the_demo_rider_is_offered_one(session, seeded):
    seed_demo_import(session)
    assert imports.latest(session, seeded["rider@example.com"]) is None
    waiting = imports.latest(session, seeded[DEMO_IMPORTER])
    assert (waiting.status, waiting.migration_platform) == ("submitted", "Zwift")
    assert waiting.total_ride_time == ((17 * 24 + 4) * 60 + 20) * 60
    assert imports.pending_count(session) == 1
    [item] = imports.for_review(session, "pending")
    assert item["files"] == [
        {"id": waiting.proof_file_ids[0], "name": "zwift-totals.png", "content_type": "image/png"}
    ]


def test_the_demo_rider_owes_one_open_and_one_coming_weigh_in(session, seeded):
    """Relative to when the seed runs: one window open now, one opening in a few hours, one just ended."""
    now = utcnow()
    events = seed_demo_events(session, now)
    booked = {event.name: event.booked for event in events}
    assert seed_demo_weigh_ins(session, events, now) == 3
    owed = weigh_ins.items(session, seeded[DEMO_WEIGHER], now)
    assert [(item["event_name"], item["type"]) for item in owed] == [
        ("Hatta Hills Time Trial", "pre_weight"),
        ("Meydan Night Race", "pre_weight"),
    ]
    opening = owed[1]["start_time"]
    assert opening > now.strftime("%Y-%m-%dT%H:%M:%SZ") > owed[0]["start_time"]
    # The post-weight of the past race ended minutes before the seed ran.
    earlier = weigh_ins.items(session, seeded[DEMO_WEIGHER], now - timedelta(minutes=11))
    assert ("Sunday Race Club - Round 9", "post_weight") in [(i["event_name"], i["type"]) for i in earlier]
    session.expire_all()
    for name in ("Hatta Hills Time Trial", "Meydan Night Race", "Sunday Race Club - Round 9"):
        event = session.exec(select(Event).where(Event.name == name)).one()
        assert event.weigh_ins and event.booked == booked[name] + 1
    assert weigh_ins.items(session, seeded["kid@example.com"], now) == []


def test_the_demo_wallets_show_prizes_withdrawals_and_work_for_finance(session, seeded):
    seed_demo_reviews(session)
    now = utcnow()
    events = seed_demo_events(session, now)
    assert seed_demo_wallets(session, events, now) == 4
    accounts = {account.email: account for account in session.exec(select(Account))}
    rider = wallet.summary(session, accounts["rider@example.com"], now)
    # 0.0125 + 0.0048 in prizes, less 0.005075 paid out and 0.001523 held.
    assert rider["walletData"]["balance"] == "0.010702"
    assert rider["user"]["verificationStatus"] == "approved"
    assert (rider["walletData"]["pendingRequests"], rider["walletData"]["completedTransactions"]) == (1, 1)
    karim = wallet.summary(session, accounts["karim@example.com"], now)
    assert (karim["user"]["verificationStatus"], karim["walletData"]["balance"]) == ("unverified", "0.002500")
    officer = accounts["finance@example.com"]
    assert finance.pending_counts(session, officer) == {"wallet_verification": 1, "withdrawal": 1}
    credited = [rider for event in finance.prize_events(session, officer, now) for rider in event["riders"]]
    assert sorted(rider["credited"] for rider in credited if rider["credited"]) == [
        "0.001000",
        "0.002500",
        "0.004800",
        "0.012500",
    ]


def test_the_demo_teams_fill_two_pages_and_the_demo_rider_rides_for_desert_falcons(session, seeded):
    assert seed_demo_teams(session, utcnow()) == 14
    first, second = teams.public_teams(session, 1), teams.public_teams(session, 2)
    assert (first.total_pages, first.total_count, len(second.teams)) == (2, 13, 3)
    assert all(card.description and card.member_count >= 2 for card in first.teams + second.teams)
    assert {card.country for card in first.teams + second.teams} == {"AE", "SA", "OM", "QA", "BH", "KW", ""}
    rider = seeded["rider@example.com"]
    assert teams.header_team(session, rider.id) == "Desert Falcons"
    assert teams.rider_teams(session, rider, owned=False).total_count == 1
    assert teams.rider_teams(session, rider, owned=True).total_count == 0
