"""SQLModel tables. Importing this package registers every table for migrations."""

from cycling_site.models.accounts import Account, Role
from cycling_site.models.outbox import OutboxMessage
from cycling_site.models.sessions import RevokedSession, UsedHumanCheck

__all__ = ["Account", "OutboxMessage", "RevokedSession", "Role", "UsedHumanCheck"]
