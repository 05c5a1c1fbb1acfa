"""Demo data: `python -m cycling_site.seed` fills an empty database in demo mode only.

Besides the app module, the one place of the site that reaches into the embedded services: it hands them
their demo data (the riders' rides, the past races' results)."""

import sys
from datetime import date, datetime, timedelta
from io import BytesIO

from PIL import Image, ImageDraw
from sqlmodel import Session, select

from cycling_site.db import get_session
from cycling_site.embedded.activity import rides
from cycling_site.embedded.activity.demo_rides import demo_rides
from cycling_site.embedded.activity.rides import NewRide
from cycling_site.embedded.results import standings
from cycling_site.embedded.results.standings import RaceEntry, seed_results
from cycling_site.models import (
    Account,
    Currency,
    Event,
    OwnedItem,
    PreVerification,
    Registration,
    Role,
    Team,
    TeamMembership,
)
from cycling_site.models.accounts import VerificationStatus
from cycling_site.models.common import as_utc, utcnow
from cycling_site.models.events import RegistrationStatus
from cycling_site.models.wallet import WalletStatus, WalletVerification
from cycling_site.services import finance, ledger, rider_files, teams, wallet
from cycling_site.services import third_party_import as imports
from cycling_site.services.accounts import hash_password
from cycling_site.services.demo_events import WEIGH_INS, WINNER_PRIZES, demo_events, weigh_in_windows
from cycling_site.services.ledger import Move
from cycling_site.services.tracks import seed_tracks
from cycling_site.settings import settings

DEMO_PASSWORD = "ridefast"
# (account, random seed, months of rides): the adult rider and the approved kid ride; the others do not.
DEMO_RIDERS = (("rider@example.com", 7, 3), ("kid@example.com", 11, 1))
DEMO_SHOPPER = "rider@example.com"
DEMO_IMPORTER = "kid@example.com"
DEMO_PURSE = {Currency.coin: 3500, Currency.gem: 120}
DEMO_KIT = ("frame-oasis-endurance", "wheel-summit-25", "jersey-desert-sunset", "socks-striped")
# The demo rider's registrations for the events with weigh-ins (the others are left to register for).
DEMO_WEIGHER = "rider@example.com"
DEMO_WEIGH_IN_REGISTRATIONS = {
    "Hatta Hills Time Trial": RegistrationStatus.approved,
    "Meydan Night Race": RegistrationStatus.pending,
    "Sunday Race Club - Round 9": RegistrationStatus.approved,
}
UAE = 784


def _demo_accounts(password_hash: str) -> list[Account]:
    common = {"password_hash": password_hash, "email_verified": True, "country": UAE}
    return [
        Account(
            email="rider@example.com",
            firstname="Layla",
            lastname="Haddad",
            gender=1,
            weight=58.5,
            height=168,
            dob=date(1994, 3, 14),
            jersey="jersey-orange.svg",
            verification_status=VerificationStatus.approved,
            level=18,
            ftp=235,
            category_id=2,
            **common,
        ),
        Account(
            email="kid@example.com",
            firstname="Omar",
            lastname="Haddad",
            gender=0,
            weight=42,
            height=152,
            dob=date(2013, 6, 2),
            is_kid=True,
            parent_email="rider@example.com",
            parent_approved=True,
            jersey="jersey-blue.svg",
            level=6,
            ftp=140,
            **common,
        ),
        Account(
            email="newkid@example.com",
            firstname="Sara",
            lastname="Nasser",
            gender=1,
            weight=38,
            height=145,
            dob=date(2015, 9, 21),
            is_kid=True,
            parent_email="parent@example.com",
            **common,
        ),
        Account(
            email="racecontrol@example.com",
            firstname="Race",
            lastname="Control",
            role=Role.race_control,
            is_normal_user=False,
            dob=date(1985, 1, 1),
            **common,
        ),
        Account(
            email="finance@example.com",
            firstname="Fatima",
            lastname="Rahman",
            role=Role.finance,
            is_normal_user=False,
            dob=date(1988, 7, 9),
            **common,
        ),
        Account(
            email="admin@example.com",
            firstname="Site",
            lastname="Admin",
            role=Role.admin,
            is_normal_user=False,
            dob=date(1980, 1, 1),
            **common,
        ),
    ]


def seed_demo(session: Session) -> bool:
    """Adds the demo accounts to an empty database; answers whether it did."""
    if session.exec(select(Account.id)).first() is not None:
        return False
    session.add_all(_demo_accounts(hash_password(DEMO_PASSWORD)))
    session.commit()
    return True


# Indoor racing teams of the Gulf: (name, country, description, captain, riders beyond the captain, public).
# Captains and riders are club riders (below); the demo rider rides for Desert Falcons, which she joined last.
DEMO_TEAMS = (
    (
        "Desert Falcons",
        "AE",
        "Dubai's Sunday race crew: hard tempo, fast finishes and coffee in Al Quoz.",
        0,
        6,
        True,
    ),
    (
        "Hatta Hill Climbers",
        "AE",
        "We live for gradients: Hatta repeats, Jebel Jais on the trainer, W/kg talk.",
        1,
        4,
        True,
    ),
    (
        "Abu Dhabi Aero Club",
        "AE",
        "Time-trial specialists from the capital. Steady power, low CdA, no excuses.",
        2,
        5,
        True,
    ),
    (
        "Sharjah Night Riders",
        "AE",
        "After-work races at 9 pm Gulf time, every weekday. All categories welcome.",
        3,
        3,
        True,
    ),
    (
        "Riyadh Watts Collective",
        "SA",
        "Saudi riders chasing FTP gains together, with structured team workouts.",
        4,
        7,
        True,
    ),
    (
        "Jeddah Corniche Racing",
        "SA",
        "Red Sea riders racing indoors through the summer heat. Crit lovers.",
        5,
        2,
        True,
    ),
    (
        "Muscat Mountain Wheels",
        "OM",
        "Oman's climbers: Jebel Akhdar on the road, long climbs in the game.",
        6,
        4,
        True,
    ),
    (
        "Doha Pulse Cycling",
        "QA",
        "Qatar's indoor racing team. Team time trials, sprints and a friendly chat.",
        7,
        3,
        True,
    ),
    (
        "Manama Spin Squad",
        "BH",
        "Bahrain's crew for the weekly league: we ride, we race, we help new riders.",
        8,
        2,
        True,
    ),
    (
        "Kuwait Sandstorm CC",
        "KW",
        "Big engines from Kuwait City. Breakaways are our favourite way to race.",
        9,
        5,
        True,
    ),
    (
        "Al Ain Oasis Riders",
        "AE",
        "Garden City riders: endurance rides on Saturday, races on Sunday.",
        10,
        1,
        True,
    ),
    (
        "Ras Al Khaimah Summit",
        "AE",
        "Training for Jebel Jais all year long. Climbing group rides twice a week.",
        11,
        2,
        True,
    ),
    ("Gulf Nomads", "", "Riders from everywhere, racing from wherever we are this month.", 0, 3, True),
    (
        "Falcon Academy Juniors",
        "AE",
        "The academy's junior squad: by invitation of the coaches.",
        1,
        2,
        False,
    ),
)
# (first name, last name, gender, country id) of the club riders.
CLUB_RIDERS = (
    ("Hamad", "Al Mansoori", 0, 784),
    ("Noura", "Al Ketbi", 1, 784),
    ("Rashid", "Al Shamsi", 0, 784),
    ("Aisha", "Al Nuaimi", 1, 784),
    ("Faisal", "Al Harbi", 0, 682),
    ("Reem", "Al Qahtani", 1, 682),
    ("Salim", "Al Busaidi", 0, 512),
    ("Maryam", "Al Thani", 1, 634),
    ("Yousef", "Al Khalifa", 0, 48),
    ("Dana", "Al Sabah", 1, 414),
    ("Khalid", "Al Dhaheri", 0, 784),
    ("Huda", "Al Zaabi", 1, 784),
    ("Tariq", "Haddad", 0, 400),
    ("Lina", "Nassar", 1, 422),
)


def seed_demo_teams(session: Session, now: datetime) -> int:
    """Club riders and their teams; the demo rider joins Desert Falcons last, so her dashboard shows it."""
    password_hash = session.exec(select(Account.password_hash).where(Account.email == DEMO_SHOPPER)).one()
    riders = []
    for first, last, gender, country in CLUB_RIDERS:
        rider = Account(
            email=f"{first}.{last.replace(' ', '')}@example.com".lower(),
            firstname=first,
            lastname=last,
            gender=gender,
            dob=date(1990, 1, 1),
            country=country,
            password_hash=password_hash,
            email_verified=True,
        )
        session.add(rider)
        riders.append(rider)
    session.flush()
    start = now - timedelta(days=120)
    for number, (name, country, description, captain, count, public) in enumerate(DEMO_TEAMS):
        created = start + timedelta(days=number * 7)
        owner = riders[captain]
        team = Team(
            name=name,
            name_key=teams.name_key(name),
            description=description,
            country=country,
            owner_id=owner.id,
            public=public,
            created_at=created,
        )
        session.add(team)
        session.flush()
        members = [owner] + [riders[(captain + 1 + step) % len(riders)] for step in range(count)]
        for order, member in enumerate(members):
            joined = created + timedelta(hours=order)
            session.add(TeamMembership(team_id=team.id, account_id=member.id, joined_at=joined))
    falcons = session.exec(select(Team.id).where(Team.name == DEMO_TEAMS[0][0])).one()
    rider_id = session.exec(select(Account.id).where(Account.email == DEMO_SHOPPER)).one()
    session.add(TeamMembership(team_id=falcons, account_id=rider_id, joined_at=now - timedelta(days=2)))
    session.commit()
    return len(DEMO_TEAMS)


def seed_demo_shop(session: Session) -> None:
    """The demo rider's purse and starter kit: some coins and gems (welcome credits on the ledger) and a
    few items already in the garage."""
    account = session.exec(select(Account).where(Account.email == DEMO_SHOPPER)).one()
    for currency, amount in DEMO_PURSE.items():
        ledger.move(session, Move(account.id, currency, amount, "welcome", "demo", f"welcome:{account.id}"))
    session.add_all(OwnedItem(account_id=account.id, item_id=item_id) for item_id in DEMO_KIT)
    session.commit()


# Riders waiting for race control, so the console has work on a fresh demo.
DEMO_APPLICANTS = (
    ("karim@example.com", "Karim", "Saleh", 0, "Tacx Neo 2T", "Power meter pedals", 74.2, 181),
    ("mia@example.com", "Mia", "Jensen", 1, "Wahoo KICKR Core", "Crank power meter", 61.0, 170),
)


def seed_demo_reviews(session: Session) -> int:
    """Two riders whose pre-verification waits for race control."""
    password_hash = session.exec(select(Account.password_hash).where(Account.email == DEMO_SHOPPER)).one()
    for email, first, last, gender, trainer, power, weight, height in DEMO_APPLICANTS:
        applicant = Account(
            email=email,
            firstname=first,
            lastname=last,
            gender=gender,
            weight=weight,
            height=height,
            dob=date(1992, 5, 1),
            password_hash=password_hash,
            email_verified=True,
            country=UAE,
            verification_status=VerificationStatus.pending,
        )
        session.add(applicant)
        session.flush()
        session.add(
            PreVerification(
                account_id=applicant.id,
                smart_trainer=trainer,
                secondary_power_source=power,
                weight=weight,
                height=height,
                video_link=f"https://www.youtube.com/watch?v=demo-{first.lower()}",
                strava_link=f"https://www.strava.com/athletes/{first.lower()}",
                message="Ready for the Sunday races.",
            )
        )
    session.commit()
    return len(DEMO_APPLICANTS)


def _proof_image(lines: list[str]) -> bytes:
    """A screenshot-like PNG of ride totals, as a rider would send it."""
    image = Image.new("RGB", (640, 200), (252, 76, 2))
    draw = ImageDraw.Draw(image)
    for number, line in enumerate(lines):
        draw.text((24, 24 + number * 36), line, fill="white", font_size=26)
    out = BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def seed_demo_import(session: Session) -> None:
    """One import waiting for race control (the kid's; the demo rider is left to be offered one)."""
    account = session.exec(select(Account).where(Account.email == DEMO_IMPORTER)).one()
    proof = _proof_image(["Zwift totals", "Time 17d 4h 20m  Distance 7,340 mi", "Elevation 96,400 m"])
    stored = rider_files.store(session, account, imports.PROOF_KIND, "zwift-totals.png", proof)
    form = imports.ImportForm(
        migration_platform="Zwift",
        days="17",
        hours="4",
        minutes="20",
        distance="7340",
        distance_unit="miles",
        elevation="96400",
        profile_link="https://zwiftpower.com/profile.php?z=123456",
    )
    imports.submit(session, account, form, [stored.id])


def seed_demo_rides(session: Session, end: datetime) -> int:
    """A few months of rides for the demo riders, written as FIT files and ingested like any upload."""
    count = 0
    for email, seed, months in DEMO_RIDERS:
        account = session.exec(select(Account).where(Account.email == email)).one()
        for ride in demo_rides(seed, end, months, ftp=account.ftp, weight_kg=account.weight):
            name = f"{ride.started_at:%Y-%m-%d-%H-%M-%S}.fit"
            new = NewRide(
                account.uuid,
                ride.fit,
                name,
                ride.type,
                ride.title,
                ride.route_name,
                account.ftp,
                account.weight,
            )
            rides.ingest(session, new)
            count += 1
    return count


def seed_demo_events(session: Session, now: datetime) -> list[Event]:
    """Events around `now` that show every case of the event screens."""
    events = demo_events(now)
    session.add_all(events)
    session.commit()
    return events


def seed_demo_weigh_ins(session: Session, events: list[Event], now: datetime) -> int:
    """The weigh-in windows (one open now, one opening in a few hours, one just ended) and the demo rider's
    registrations for those events, each taking its slot as a registration does."""
    session.add_all(weigh_in_windows(events, now))
    rider = session.exec(select(Account).where(Account.email == DEMO_WEIGHER)).one()
    by_name = {event.name: event for event in events}
    for name, status in DEMO_WEIGH_IN_REGISTRATIONS.items():
        event = by_name[name]
        event.booked += 1
        session.add(event)
        session.add(
            Registration(
                event_id=event.id,
                account_id=rider.id,
                status=status,
                first_name=rider.firstname,
                last_name=rider.lastname,
                email=rider.email,
                gender=rider.gender,
                dob=rider.dob if event.dob_required else None,
                created_at=now,
                decided_at=now if status == RegistrationStatus.approved else None,
            )
        )
    session.commit()
    return len(WEIGH_INS)


# Prize money (BTC) of past events: the demo rider has a wallet history, Karim a balance and no verified
# wallet yet, Mia a verification waiting for finance.
DEMO_FINANCE = "finance@example.com"
DEMO_PRIZES = (
    ("rider@example.com", 0, "0.012500"),
    ("rider@example.com", 1, "0.004800"),
    ("karim@example.com", 0, "0.002500"),
    ("mia@example.com", 1, "0.001000"),
)
DEMO_WALLETS = {
    "rider@example.com": (
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        WalletStatus.approved,
        "+971501234567",
    ),
    "mia@example.com": (
        "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
        WalletStatus.pending,
        "+971552345678",
    ),
}


def _wallet_verification(session: Session, rider: Account, address: str, status: str, phone: str) -> None:
    passport = rider_files.store(
        session,
        rider,
        "passport_proof",
        "passport.png",
        _proof_image(["PASSPORT", f"{rider.firstname} {rider.lastname}"]),
    )
    screenshot = rider_files.store(
        session,
        rider,
        "binance_screenshot",
        "binance.png",
        _proof_image(["Binance", "Account verified", address[:24]]),
    )
    session.add(
        WalletVerification(
            account_id=rider.id,
            binance_email=rider.email,
            phone=phone,
            wallet_address=address,
            passport_file_id=passport.id,
            screenshot_file_ids=[screenshot.id],
            status=status,
        )
    )
    session.commit()


def seed_demo_wallets(session: Session, events: list[Event], now: datetime) -> int:
    """Prize credits from past events (each rider registered for them), wallet verifications, and the demo
    rider's withdrawals: one paid last month, one waiting for finance."""
    officer = session.exec(select(Account).where(Account.email == DEMO_FINANCE)).one()
    past = sorted(
        (event for event in events if as_utc(event.starts_at) < now), key=lambda event: event.starts_at
    )
    past.reverse()
    for email, index, amount in DEMO_PRIZES:
        rider = session.exec(select(Account).where(Account.email == email)).one()
        event = past[index]
        registered = session.exec(
            select(Registration.id).where(
                Registration.event_id == event.id, Registration.account_id == rider.id
            )
        ).first()
        if registered is None:
            session.add(
                Registration(
                    event_id=event.id,
                    account_id=rider.id,
                    status=RegistrationStatus.approved,
                    first_name=rider.firstname,
                    last_name=rider.lastname,
                    email=rider.email,
                    gender=rider.gender,
                    created_at=event.starts_at - timedelta(days=3),
                    decided_at=event.starts_at - timedelta(days=2),
                )
            )
        session.commit()
        finance.credit_prize(session, officer, event.id, rider.id, amount, now)
    for email, (address, status, phone) in DEMO_WALLETS.items():
        rider = session.exec(select(Account).where(Account.email == email)).one()
        _wallet_verification(session, rider, address, status, phone)
    rider = session.exec(select(Account).where(Account.email == DEMO_SHOPPER)).one()
    verification = wallet.approved_verification(session, rider)
    paid = wallet.place_withdrawal(
        session, rider, verification, wallet.Quote(500_000, wallet.fee_for(500_000)), now - timedelta(days=32)
    )
    finance.decide_withdrawal(
        session,
        officer,
        paid.id,
        True,
        "",
        "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16",
    )
    wallet.place_withdrawal(session, rider, verification, wallet.Quote(150_000, wallet.fee_for(150_000)), now)
    return len(DEMO_PRIZES)


def race_entries(events: list[Event]) -> list[RaceEntry]:
    """The events as the results service takes them: a series (its prize structure has day tables) is
    raced over two days, any other event over one."""
    return [
        RaceEntry(
            event.id,
            event.name,
            event.starts_at,
            event.distance_km,
            event.elevation_m,
            2 if event.prize_structure.get("templateType") == "SERIES" else 1,
        )
        for event in events
    ]


def crown_winners(session: Session, events: list[Event]) -> None:
    """Past events name as winners the top five of their stored results, with the podium prizes."""
    for event in events:
        top = standings.standings(session, event.id)[: len(WINNER_PRIZES)]
        if top:
            event.winners = [
                {
                    "position": row.position,
                    "name": row.rider_name,
                    "category": f"Category {row.category}",
                    "time": standings.race_time(row.time_s),
                    "prize": prize,
                }
                for row, prize in zip(top, WINNER_PRIZES, strict=False)
            ]
            session.add(event)
    session.commit()


def main() -> int:
    if not settings.demo:
        print("Not in demo mode (APP_ENV=production): no demo data written.")
        return 0
    with get_session() as session:
        if not seed_demo(session):
            print("Database not empty: seed skipped.")
            return 0
        now = utcnow()
        rides = seed_demo_rides(session, now)
        seed_demo_shop(session)
        seed_demo_reviews(session)
        seed_demo_import(session)
        team_count = seed_demo_teams(session, now)
        events = seed_demo_events(session, now)
        windows = seed_demo_weigh_ins(session, events, now)
        tracks = seed_tracks(session)
        result_rows = seed_results(session, race_entries(events))
        crown_winners(session, events)
        prizes = seed_demo_wallets(session, events, now)
    print(
        f"Demo data written: demo accounts, {rides} rides, {team_count} teams, {len(events)} events "
        f"({windows} weigh-in windows), {tracks} tracks, {result_rows} result lines, {prizes} prize credits."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
