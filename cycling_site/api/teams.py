"""Teams (spec 2 and 3 section 7): GET api/team-management/get-public-teams for everyone, POST
api/team-management/get-teams for the signed-in rider's joined or owned teams, and, beyond the spec,
creating, joining and leaving a team.

Both lists answer `{status, data, page, totalPages, limit, totalCount}`, sorted by team name; a page past
the last answers the last page. countryFlag is the team's ISO 3166 alpha-2 country code (the site draws
the flag from it), empty when the team has none (the card shows a placeholder)."""

from typing import Literal

import pycountry
from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cycling_site.api.answers import CONSTANTS_SENT, AnswerModel, AnswerWithMessage, Message
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import NOT_BLANK, Whole, requires, text
from cycling_site.messages import teams as msg
from cycling_site.models.teams import DESCRIPTION_MAX, NAME_MAX
from cycling_site.services import teams
from cycling_site.services.teams import TeamForm, TeamPage

router = APIRouter(prefix="/team-management", tags=["teams"])


class TeamOut(AnswerModel):
    teamId: int
    teamName: str
    teamDescription: str
    countryFlag: str = Field(description="ISO 3166 alpha-2 of the team's country; empty: no flag")
    memberCount: int


class TeamsOut(AnswerModel):
    """One page of teams (spec 3 section 7)."""

    model_config = CONSTANTS_SENT

    status: Literal[True] = True
    data: list[TeamOut]
    page: int
    totalPages: int = Field(description="0 when there are no teams")
    limit: int
    totalCount: int


class RiderTeamsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["all", "public", "private"] = Field(default="all", description="Which teams by visibility")
    ownTeams: Literal["true", "false"] = Field(
        default="false", description='"true": the teams the rider owns; "false": the teams the rider joined'
    )
    page: Whole = Field(default=1, ge=1, le=teams.PAGE_MAX)
    limit: Whole = Field(default=teams.PER_PAGE, ge=1, le=teams.PER_PAGE_MAX)


class CreateTeamIn(BaseModel):
    model_config = requires("teamName", extra="forbid")

    teamName: str = Field(
        default="",
        max_length=NAME_MAX * 4,
        description=f"1 to {NAME_MAX} characters",
        json_schema_extra=text(NAME_MAX, pattern=NOT_BLANK),
    )
    teamDescription: str = Field(
        default="", max_length=DESCRIPTION_MAX * 2, json_schema_extra={"maxLength": DESCRIPTION_MAX}
    )
    country: str = Field(
        default="",
        max_length=10,
        description="ISO 3166 alpha-2; empty for none",
        json_schema_extra={"enum": ["", *sorted(country.alpha_2 for country in pycountry.countries)]},
    )
    isPublic: StrictBool = Field(default=True, description="Listed and open for every rider to join")


class TeamIdIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    teamId: Whole = Field(ge=1, lt=teams.ID_MAX)


def _page(found: TeamPage) -> TeamsOut:
    return TeamsOut(
        data=[
            TeamOut(
                teamId=card.team_id,
                teamName=card.name,
                teamDescription=card.description,
                countryFlag=card.country,
                memberCount=card.member_count,
            )
            for card in found.teams
        ],
        page=found.page,
        totalPages=found.total_pages,
        limit=found.limit,
        totalCount=found.total_count,
    )


@router.get("/get-public-teams", responses=documented(400, 503))
def public_teams(
    session: DB,
    page: int = Query(default=1, ge=1, le=teams.PAGE_MAX),
    limit: int = Query(default=teams.PER_PAGE, ge=1, le=teams.PER_PAGE_MAX),
) -> TeamsOut:
    """Every public team, by name, with its member count."""
    return _page(teams.public_teams(session, page, limit))


@router.post("/get-teams", responses=documented(400, 401, 403, 413, 503))
def rider_teams(body: RiderTeamsIn, account: CurrentAccount, session: DB) -> TeamsOut:
    """The signed-in rider's owned teams (ownTeams "true") or joined teams (the others they ride for)."""
    found = teams.rider_teams(session, account, body.ownTeams == "true", body.page, body.limit, body.type)
    return _page(found)


@router.post("/create-team", responses=documented(400, 401, 403, 413, 503))
def create_team(body: CreateTeamIn, account: CurrentAccount, session: DB) -> AnswerWithMessage[TeamOut]:
    """The rider owns the new team and is its first member. 400: the name is empty, longer than 60
    characters or taken (in any letter case), the description is too long or the country unknown."""
    form = TeamForm(body.teamName, body.teamDescription, body.country, body.isPublic)
    team = teams.create(session, account, form)
    data = TeamOut(
        teamId=team.id or 0,
        teamName=team.name,
        teamDescription=team.description,
        countryFlag=team.country,
        memberCount=1,
    )
    return AnswerWithMessage[TeamOut](message=msg.TEAM_CREATED.format(name=team.name), data=data)


@router.post("/join-team", responses=documented(400, 401, 403, 404, 413, 503))
def join_team(body: TeamIdIn, account: CurrentAccount, session: DB) -> Message:
    """Public teams only (403 for a private one); 400 when the rider is already a member, 404 when there is
    no such team."""
    team = teams.join(session, account, body.teamId)
    return Message(message=msg.TEAM_JOINED.format(name=team.name))


@router.post("/leave-team", responses=documented(400, 401, 403, 404, 413, 503))
def leave_team(body: TeamIdIn, account: CurrentAccount, session: DB) -> Message:
    """400 when the rider is not a member, or owns the team while others still ride for it; an owner who is
    its last member closes the team."""
    team, closed = teams.leave(session, account, body.teamId)
    return Message(message=(msg.TEAM_CLOSED if closed else msg.TEAM_LEFT).format(name=team.name))
