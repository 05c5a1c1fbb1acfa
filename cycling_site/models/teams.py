"""Teams (spec 2 sections 2 and 3): riders' teams and who rides for them.

A team's name is unique whatever its letter case: `name_key` (the trimmed name in lower case) carries the
unique index, so two riders creating the same name at once end with one team. A rider joins a team at most
once: the unique (team_id, account_id) pair holds that under parallel requests too."""

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from cycling_site.models.common import utc_column, utcnow

NAME_MAX = 60
DESCRIPTION_MAX = 500


class Team(SQLModel, table=True):
    __table_args__ = (Index("ix_team_public_name", "public", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=NAME_MAX)
    name_key: str = Field(max_length=NAME_MAX, unique=True, description="The name trimmed, in lower case")
    description: str = Field(default="", max_length=DESCRIPTION_MAX)
    country: str = Field(default="", max_length=2, description="ISO 3166 alpha-2; empty when none is given")
    owner_id: int = Field(foreign_key="account.id", index=True)
    public: bool = Field(default=True)
    created_at: datetime = utc_column(default_factory=utcnow)


class TeamMembership(SQLModel, table=True):
    __tablename__ = "team_membership"
    __table_args__ = (
        UniqueConstraint("team_id", "account_id", name="uq_team_membership_rider"),
        Index("ix_team_membership_account_joined", "account_id", "joined_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = Field(foreign_key="team.id")
    account_id: int = Field(foreign_key="account.id")
    joined_at: datetime = utc_column(default_factory=utcnow)
