"""SQLModel tables. Importing this package registers every table for migrations."""

from cycling_site.models.accounts import Account, Role
from cycling_site.models.activities import Ride, RideData, RiderCurve
from cycling_site.models.codes import AccountCode, CodePurpose
from cycling_site.models.connections import Connection, OAuthState
from cycling_site.models.contact import ContactMessage, Subscriber
from cycling_site.models.events import Event, EventResult, PhoneVerification, Registration, RiderFile, Track
from cycling_site.models.outbox import OutboxMessage
from cycling_site.models.sessions import RevokedSession, UsedHumanCheck

__all__ = [
    "Account",
    "AccountCode",
    "CodePurpose",
    "Connection",
    "ContactMessage",
    "Event",
    "EventResult",
    "OAuthState",
    "OutboxMessage",
    "Registration",
    "RevokedSession",
    "Ride",
    "RideData",
    "RiderCurve",
    "PhoneVerification",
    "RiderFile",
    "Role",
    "Subscriber",
    "Track",
    "UsedHumanCheck",
]
