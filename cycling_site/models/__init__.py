"""SQLModel tables. Importing this package registers every table for migrations."""

from cycling_site.models.accounts import Account, Role
from cycling_site.models.activities import Ride, RideData, RiderCurve
from cycling_site.models.codes import AccountCode, CodePurpose
from cycling_site.models.connections import Connection, OAuthState
from cycling_site.models.contact import ContactMessage, Subscriber
from cycling_site.models.outbox import OutboxMessage
from cycling_site.models.sessions import RevokedSession, UsedHumanCheck

__all__ = [
    "Account",
    "AccountCode",
    "CodePurpose",
    "Connection",
    "ContactMessage",
    "OAuthState",
    "OutboxMessage",
    "RevokedSession",
    "Ride",
    "RideData",
    "RiderCurve",
    "Role",
    "Subscriber",
    "UsedHumanCheck",
]
