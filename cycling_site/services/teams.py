"""Teams (spec 2 sections 2, 3 and 7): the public list, a rider's joined and owned teams, and creating,
joining and leaving a team.

Choices the spec leaves open:
- Lists are sorted by name (A to Z, then by id), so a team keeps its page while others are created.
- A page past the last one answers the last page; a limit is 1 to 50 (10 by default, the spec's page size).
- "Joined" teams are those the rider is a member of but does not own; "owned" are the rider's own.
- Riders of any age may create, join and leave teams: a team holds no personal data beyond its name.
- An owner cannot leave a team that still has other members; as its last member, leaving closes it.
- Only public teams are listed and joined; a team is public unless its owner says otherwise.
- The dashboard shows the team the rider joined most recently (creating a team joins it).

Races are settled by the database: the unique name key keeps one team per name and the unique
(team, rider) pair one membership per rider, whatever arrives in parallel; the loser gets the same clear
message as a sequential second try."""

import math
import re
from dataclasses import dataclass

import pycountry
from sqlalchemy import bindparam, delete, false, func, true
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from cycling_site.db import read_columns
from cycling_site.messages import teams as msg
from cycling_site.models import Account, Team, TeamMembership
from cycling_site.models.common import utcnow
from cycling_site.models.teams import DESCRIPTION_MAX, NAME_MAX
from cycling_site.services.validation import FormErrors, has_nul

PER_PAGE = 10
PER_PAGE_MAX = 50
PAGE_MAX = 100_000
ID_MAX = 2**31
_SPACES = re.compile(r"\s+")


class TeamNotFound(FormErrors):
    status_code = 404

    def __init__(self) -> None:
        super().__init__({"team": msg.TEAM_NOT_FOUND})


class TeamPrivate(FormErrors):
    status_code = 403

    def __init__(self) -> None:
        super().__init__({"team": msg.NOT_PUBLIC})


@dataclass(frozen=True)
class TeamCard:
    """One team as the lists show it (spec 3's Team: teamId, teamName, teamDescription, countryFlag,
    memberCount), with what a rider's buttons need."""

    team_id: int
    name: str
    description: str
    country: str
    member_count: int
    owner_id: int
    public: bool


@dataclass(frozen=True)
class TeamPage:
    teams: list[TeamCard]
    page: int
    total_pages: int
    limit: int
    total_count: int


@dataclass(frozen=True)
class TeamForm:
    name: str = ""
    description: str = ""
    country: str = ""
    public: bool = True


def name_key(name: str) -> str:
    """What makes two names the same team: case and runs of spaces do not count."""
    return _SPACES.sub(" ", name).strip().casefold()


def _clean(form: TeamForm) -> TeamForm:
    name = _SPACES.sub(" ", str(form.name or "")).strip()
    description = str(form.description or "").strip()
    country = str(form.country or "").strip().upper()
    errors: dict[str, str] = {}
    if not name or has_nul(name):
        errors["name"] = msg.NAME_REQUIRED
    elif len(name) > NAME_MAX:
        errors["name"] = msg.NAME_TOO_LONG.format(max=NAME_MAX)
    if has_nul(description) or len(description) > DESCRIPTION_MAX:
        errors["description"] = msg.DESCRIPTION_TOO_LONG.format(max=DESCRIPTION_MAX)
    if country and (len(country) != 2 or pycountry.countries.get(alpha_2=country) is None):
        errors["country"] = msg.COUNTRY_INVALID
    if errors:
        raise FormErrors(errors)
    return TeamForm(name, description, country, bool(form.public))


def country_name(alpha2: str) -> str:
    country = pycountry.countries.get(alpha_2=alpha2) if len(alpha2) == 2 else None
    return getattr(country, "common_name", country.name) if country else ""


def country_choices() -> list[tuple[str, str]]:
    """(alpha-2, name) of every country, by name: the create form's list."""
    pairs = [(c.alpha_2, getattr(c, "common_name", c.name)) for c in pycountry.countries]
    return sorted(pairs, key=lambda pair: pair[1])


def _bounds(page: int, limit: int) -> tuple[int, int]:
    return min(max(int(page), 1), PAGE_MAX), min(max(int(limit), 1), PER_PAGE_MAX)


def _page_of(session: Session, query, page: int, limit: int) -> TeamPage:
    """One page of the teams `query` selects, by name, with their member counts."""
    page, limit = _bounds(page, limit)
    total = session.exec(select(func.count()).select_from(query.subquery())).one()
    last = max(1, math.ceil(total / limit))
    page = min(page, last)
    rows = session.exec(
        query.order_by(col(Team.name_key), col(Team.id)).offset((page - 1) * limit).limit(limit)
    ).all()
    counts = member_counts(session, [team.id for team in rows])
    cards = [
        TeamCard(
            team.id,
            team.name,
            team.description,
            team.country,
            counts.get(team.id, 0),
            team.owner_id,
            team.public,
        )
        for team in rows
    ]
    return TeamPage(cards, page, last if total else 0, limit, total)


def member_counts(session: Session, team_ids: list[int]) -> dict[int, int]:
    if not team_ids:
        return {}
    rows = session.exec(
        select(TeamMembership.team_id, func.count())
        .where(col(TeamMembership.team_id).in_(team_ids))
        .group_by(col(TeamMembership.team_id))
    ).all()
    return dict(rows)


def public_teams(session: Session, page: int = 1, limit: int = PER_PAGE) -> TeamPage:
    return _page_of(session, select(Team).where(col(Team.public) == true()), page, limit)


def rider_teams(
    session: Session, account: Account, owned: bool, page: int = 1, limit: int = PER_PAGE, kind: str = "all"
) -> TeamPage:
    """The teams the rider owns, or those the rider joined and does not own; `kind` narrows them to
    public or private teams ("all" by default)."""
    if owned:
        query = select(Team).where(Team.owner_id == account.id)
    else:
        joined = select(TeamMembership.team_id).where(TeamMembership.account_id == account.id)
        query = select(Team).where(col(Team.id).in_(joined), Team.owner_id != account.id)
    if kind in ("public", "private"):
        query = query.where(col(Team.public) == (true() if kind == "public" else false()))
    return _page_of(session, query, page, limit)


def memberships(session: Session, account_id: int, team_ids: list[int]) -> set[int]:
    """Which of these teams the rider rides for."""
    if not team_ids:
        return set()
    return set(
        session.exec(
            select(TeamMembership.team_id).where(
                TeamMembership.account_id == account_id, col(TeamMembership.team_id).in_(team_ids)
            )
        ).all()
    )


# Read on every dashboard load: built once.
_HEADER_TEAM = (
    select(Team.name)
    .join(TeamMembership, col(TeamMembership.team_id) == col(Team.id))
    .where(TeamMembership.account_id == bindparam("account_id"))
    .order_by(col(TeamMembership.joined_at).desc(), col(TeamMembership.id).desc())
    .limit(1)
)


def header_team(session: Session, account_id: int | None) -> str | None:
    """The team shown beside the rider's name: the one joined most recently."""
    if account_id is None:
        return None
    return read_columns(session, _HEADER_TEAM, account_id=account_id).scalar()


def create(session: Session, account: Account, form: TeamForm) -> Team:
    """A new team with the rider as its owner and first member; a name taken in any letter case is
    refused, also when two riders create it at the same moment."""
    clean = _clean(form)
    key = name_key(clean.name)
    if session.exec(select(Team.id).where(Team.name_key == key)).first() is not None:
        raise FormErrors({"name": msg.NAME_TAKEN})
    now = utcnow()
    team = Team(
        name=clean.name,
        name_key=key,
        description=clean.description,
        country=clean.country,
        owner_id=account.id,
        public=clean.public,
        created_at=now,
    )
    try:
        session.add(team)
        session.flush()
        session.add(TeamMembership(team_id=team.id, account_id=account.id, joined_at=now))
        session.commit()
    except IntegrityError:
        session.rollback()
        raise FormErrors({"name": msg.NAME_TAKEN}) from None
    return team


def _team(session: Session, team_id: object, *, lock: str = "") -> Team:
    try:
        wanted = int(str(team_id))
    except ValueError:
        raise TeamNotFound from None
    if not 0 < wanted < ID_MAX:
        raise TeamNotFound
    query = select(Team).where(Team.id == wanted)
    if lock:
        # PostgreSQL: joins share the team row, a closing owner takes it alone (SQLite writes one at a time).
        query = query.with_for_update(read=lock == "share")
    team = session.exec(query).first()
    if team is None:
        raise TeamNotFound
    return team


def join(session: Session, account: Account, team_id: object) -> Team:
    """Public teams only; a second join, sequential or parallel, answers "already a member"."""
    team = _team(session, team_id, lock="share")
    if not team.public:
        session.rollback()
        raise TeamPrivate
    try:
        session.add(TeamMembership(team_id=team.id, account_id=account.id, joined_at=utcnow()))
        session.commit()
    except IntegrityError:
        session.rollback()
        if session.exec(
            select(TeamMembership.id).where(
                TeamMembership.team_id == team.id, TeamMembership.account_id == account.id
            )
        ).first():
            raise FormErrors({"team": msg.ALREADY_MEMBER}) from None
        raise TeamNotFound from None
    return team


def leave(session: Session, account: Account, team_id: object) -> tuple[Team, bool]:
    """Leaves the team; answers it and whether it closed (its owner was its last member)."""
    team = _team(session, team_id, lock="update")
    membership = session.exec(
        select(TeamMembership).where(
            TeamMembership.team_id == team.id, TeamMembership.account_id == account.id
        )
    ).first()
    if membership is None:
        session.rollback()
        raise FormErrors({"team": msg.NOT_MEMBER})
    closing = team.owner_id == account.id
    if closing:
        others = session.exec(
            select(func.count()).where(
                TeamMembership.team_id == team.id, TeamMembership.account_id != account.id
            )
        ).one()
        if others:
            session.rollback()
            raise FormErrors({"team": msg.OWNER_CANNOT_LEAVE})
    try:
        session.delete(membership)
        if closing:
            session.flush()
            session.delete(team)
        session.commit()
    except IntegrityError:
        # A rider joined while the owner was closing the team: it stays, with its new member.
        session.rollback()
        raise FormErrors({"team": msg.OWNER_CANNOT_LEAVE}) from None
    return team, closing


def remove_rider(session: Session, account: Account) -> None:
    """A deleted account leaves every team (not committed here): a team it owned passes to its
    longest-standing other member, or closes when there is none."""
    for team in session.exec(select(Team).where(Team.owner_id == account.id)).all():
        heir = session.exec(
            select(TeamMembership.account_id)
            .where(TeamMembership.team_id == team.id, TeamMembership.account_id != account.id)
            .order_by(col(TeamMembership.joined_at), col(TeamMembership.id))
            .limit(1)
        ).first()
        if heir is None:
            session.exec(delete(TeamMembership).where(col(TeamMembership.team_id) == team.id))
            session.flush()
            session.delete(team)
        else:
            team.owner_id = heir
            session.add(team)
    session.exec(delete(TeamMembership).where(col(TeamMembership.account_id) == account.id))
