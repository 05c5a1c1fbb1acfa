"""The site's SQLModel tables; importing this package registers them for migrations.

Each embedded service keeps its own tables in embedded/<service>/models.py."""

from cycling_site.models.accounts import Account, Role
from cycling_site.models.codes import AccountCode, CodePurpose
from cycling_site.models.connections import Connection, OAuthState
from cycling_site.models.contact import ContactMessage, Subscriber
from cycling_site.models.events import Event, PhoneVerification, Registration, RiderFile, Track
from cycling_site.models.ledger import Balance, Currency, LedgerEntry
from cycling_site.models.outbox import OutboxMessage
from cycling_site.models.pre_verification import PreVerification
from cycling_site.models.race_control import ReviewDecision, ReviewKind, ReviewStatus
from cycling_site.models.rate_limits import RateLimitWindow
from cycling_site.models.sessions import RevokedSession, UsedHumanCheck
from cycling_site.models.shop import GemOrder, OrderStatus, OwnedItem
from cycling_site.models.teams import Team, TeamMembership
from cycling_site.models.third_party_import import ImportStatus, ThirdPartyImport
from cycling_site.models.wallet import (
    PrizeCredit,
    WalletStatus,
    WalletVerification,
    Withdrawal,
    WithdrawalMonth,
    WithdrawalStatus,
)
from cycling_site.models.weigh_ins import WeighInType, WeighInWindow, WeightSubmission

__all__ = [
    "Account",
    "AccountCode",
    "Balance",
    "CodePurpose",
    "Connection",
    "ContactMessage",
    "Currency",
    "Event",
    "GemOrder",
    "ImportStatus",
    "LedgerEntry",
    "OAuthState",
    "OrderStatus",
    "OutboxMessage",
    "OwnedItem",
    "RateLimitWindow",
    "Registration",
    "ReviewDecision",
    "ReviewKind",
    "ReviewStatus",
    "RevokedSession",
    "PhoneVerification",
    "PreVerification",
    "PrizeCredit",
    "RiderFile",
    "Role",
    "Subscriber",
    "Team",
    "TeamMembership",
    "ThirdPartyImport",
    "Track",
    "UsedHumanCheck",
    "WalletStatus",
    "WalletVerification",
    "WeighInType",
    "WeighInWindow",
    "WeightSubmission",
    "Withdrawal",
    "WithdrawalMonth",
    "WithdrawalStatus",
]
