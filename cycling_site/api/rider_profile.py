"""The dashboard's rider default data (spec 1 section 7: get-default-data-for-rider-profile)."""

from datetime import datetime
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from cycling_site.api.answers import Answer, AnswerModel, Number
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.clients import activity
from cycling_site.local_time import local
from cycling_site.models.common import utcnow
from cycling_site.services import rider_profile, teams, weigh_ins

router = APIRouter(prefix="/auth", tags=["rider dashboard"])


class WeightSubmissionItem(AnswerModel):
    """Spec 1 "Weight submission item": a weight the rider owes for an event, within its window. The dashboard
    shows it once start_time has passed and takes it away at end_time."""

    event_id: int
    event_name: str
    type: Literal["pre_weight", "post_weight"]
    start_time: datetime = Field(description="UTC")
    end_time: datetime = Field(description="UTC")
    status: Literal["pending", "rejected"] = Field(
        description="pending: not declared yet; rejected: race control sent the last one back, declare again"
    )


class RiderSummary(AnswerModel):
    uuId: str
    jersey: str
    country: int = Field(description="ISO 3166 numeric country code")
    countryCode: str = Field(description="ISO 3166 alpha-2, lower case")
    countryName: str
    team: str | None
    age: int
    isKid: bool
    src_verification_status: str = Field(description="not submitted, pending, approved or rejected")
    weight_submission_data: list[WeightSubmissionItem] = Field(
        description="The weigh-ins the rider owes: windows of events they are registered for that have not "
        "ended and hold no pending or approved declaration; soonest end first"
    )


class PlayerProfile(AnswerModel):
    PlayerFirstName: str
    PlayerLastName: str
    Gender: int = Field(description="0 MEN, 1 FEMALE, 2 Both")
    Weight: Number = Field(description="kg")
    HeightCm: int
    PlayerCategoryId: int | None


class PlayerPersonal(AnswerModel):
    PlayerLevel: int
    PlayerFtp: int = Field(description="Functional threshold power, W")


class PlayerStructs(AnswerModel):
    PlayerProfileStruct: PlayerProfile
    PlayerPersonalStruct: PlayerPersonal


class GamePlayer(AnswerModel):
    PlayerData: PlayerStructs


class GameUserData(AnswerModel):
    """The rider as the game's PlayerData structs have it."""

    data: GamePlayer


class PowerCurve(BaseModel):
    """The best power over every ride (mean-maximal), as the activity service answers it: three lists of the
    same length. Any other key the service sends is passed on."""

    model_config = ConfigDict(extra="allow")

    seconds: list[Number]
    power: list[Number] = Field(description="W")
    power_weight: list[Number] = Field(description="W/kg")


class RiderDefaultData(AnswerModel):
    """The dashboard's rider default data (spec 1 section 3)."""

    user: RiderSummary
    userData: GameUserData
    overall_average_graph: PowerCurve = Field(
        description="Empty lists when the rider has no rides or the activity service does not answer"
    )


@router.post("/get-default-data-for-rider-profile", responses=documented(401, 403, 413, 503))
async def default_data(account: CurrentAccount, session: DB) -> Answer[RiderDefaultData]:
    """The overall curve comes from the activity service; without it the rest still answers."""
    try:
        overall = (await activity.power_curve(account.uuid, []))["overall"]
    except activity.ActivityServiceError:
        overall = None
    now = utcnow()
    owed = weigh_ins.items(session, account, now)
    team = teams.header_team(session, account.id)
    data = rider_profile.default_data(account, overall, local(now).date(), owed, team)
    return Answer[RiderDefaultData](data=data)
