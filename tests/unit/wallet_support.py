"""What the wallet tests share: Bitcoin addresses, images, BTC on the ledger, a verification on record."""

import dataclasses
from datetime import UTC, datetime, timedelta
from io import BytesIO

from PIL import Image
from sqlmodel import Session

from cycling_site.models import Account, CodePurpose, Currency, Event, Registration
from cycling_site.models.wallet import WalletStatus, WalletVerification
from cycling_site.services import ledger, rider_files, wallet, wallet_codes
from cycling_site.services.ledger import Move

BECH32 = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
BECH32M = "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"
P2PKH = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
P2SH = "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"
TESTNET = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
SAT = 100_000_000


def png(size: tuple[int, int] = (40, 30), color: str = "orange") -> bytes:
    out = BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def use_wallet_settings(monkeypatch, **changes) -> None:
    monkeypatch.setattr(wallet, "settings", dataclasses.replace(wallet.settings, **changes))


def credit(session: Session, account_id: int, satoshi: int, key: str = "prize") -> None:
    ledger.move(session, Move(account_id, Currency.btc, satoshi, "prize", "event:1", f"{key}:{account_id}"))
    session.commit()


def verify(session: Session, account: Account, status: str = WalletStatus.approved) -> WalletVerification:
    """A verification on record, as finance leaves it."""
    passport = rider_files.store(session, account, "passport_proof", "passport.png", png())
    row = WalletVerification(
        account_id=account.id,
        binance_email=account.email,
        phone="+971501234567",
        wallet_address=BECH32,
        passport_file_id=passport.id,
        screenshot_file_ids=[],
        status=status,
        current=None if status == WalletStatus.rejected else True,
    )
    session.add(row)
    session.commit()
    return row


def withdrawal_form(amount: object = "0.001", code: str | None = None, **fields: str) -> dict:
    """A withdrawal as the form or the API sends it; e-mail and address only when given."""
    return {"amount": amount, **({"code": code} if code is not None else {}), **fields}


def withdrawal_code(session: Session, account: Account) -> str:
    """A live confirmation code, as the rider reads it in the e-mail (without the wait between e-mails)."""
    verification = wallet.approved_verification(session, account)
    code = wallet_codes.issue(session, account, CodePurpose.withdrawal, verification.binance_email)
    session.commit()
    return code


def withdraw(session: Session, account: Account, amount: object = "0.001", now: datetime | None = None):
    """A withdrawal made as the rider makes it: a fresh code, then the form."""
    return wallet.withdraw(session, account, withdrawal_form(amount, withdrawal_code(session, account)), now)


def past_event(session: Session, rider=None, days_ago: int = 3) -> Event:
    start = datetime.now(UTC) - timedelta(days=days_ago)
    event = Event(name="Hatta Hills Time Trial", starts_at=start, closes_at=start - timedelta(days=1))
    session.add(event)
    session.commit()
    if rider is not None:
        session.add(
            Registration(
                event_id=event.id,
                account_id=rider.id,
                status="approved",
                first_name=rider.firstname,
                last_name=rider.lastname,
                email=rider.email,
                gender=rider.gender,
            )
        )
        session.commit()
    return event
