"""The shapes of the API's success answers, so /api/docs and /api/openapi.json document them.

Every success answer is `status: true` with a `message`, with `data`, or with both (error answers are
`errors.ErrorBody`). An operation's return type is its answer model: FastAPI checks each answer against it, so
an answer that drifts from its documented shape fails the tests instead of reaching a caller.

- `AnswerModel`: the base of every shape of our own. Unknown keys are refused (`additionalProperties: false`),
  so a key a service adds cannot vanish from the answer unnoticed.
- `stored_content` TypedDicts: JSON the site keeps and passes on as it is (an event's categories, links,
  prizes): its documented keys are typed, any of them may be absent, and any other key is passed on.
- `Number`: a JSON number passed on as it is (70 stays 70, 58.5 stays 58.5).

Shapes that more than one router answers (the user profile, an event) are here; the others are beside their
routes.
"""

from datetime import date
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, with_config
from typing_extensions import TypedDict

Number = Annotated[int | float, WithJsonSchema({"type": "number"})]
# "" when there is no date (the wizard's empty field), else YYYY-MM-DD.
DateOrEmpty = date | Literal[""]


class AnswerModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


# For shapes with a constant field (status: true): it has a default, so routes need not write it, and the
# schema still lists it as always present. (Not on AnswerModel itself: pydantic would then mark the keys of
# the stored-content TypedDicts as required too.)
CONSTANTS_SENT = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


# For the TypedDicts of stored content: keys beyond the documented ones are passed on.
stored_content = with_config(ConfigDict(extra="allow"))


DataT = TypeVar("DataT")


class Message(AnswerModel):
    """Done: a message to show the caller."""

    model_config = CONSTANTS_SENT

    status: Literal[True] = True
    message: str


class Answer(AnswerModel, Generic[DataT]):
    """Done: the data asked for."""

    model_config = CONSTANTS_SENT

    status: Literal[True] = True
    data: DataT


class AnswerWithMessage(Message, Generic[DataT]):
    """Done: a message to show and the data."""

    data: DataT


# --- Small data shapes -----------------------------------------------------------------------------------


class Verified(AnswerModel):
    model_config = CONSTANTS_SENT

    verified: Literal[True] = True


class Key(AnswerModel):
    key: str = Field(description="The key to send with the next call of this flow")


class Link(AnswerModel):
    url: str = Field(description="Where to send the browser")


# --- The user (spec 2 section 3 "User") ------------------------------------------------------------------


class UserProfile(AnswerModel):
    """The signed-in rider's account, as sign-in, the profile and its edits answer it."""

    id: int
    uuId: str
    email: str
    firstname: str
    lastname: str
    isKid: bool
    isNormalUser: bool
    parentEmail: str | None = Field(description="A kid account's parent; null for adults")
    networks: list[Any] = Field(max_length=0, description="Always empty: the apps are in /auth/connections")
    files: list[Any] = Field(max_length=0, description="Always empty: the files come with a registration")
    country: int = Field(description="ISO 3166 numeric country code")
    gender: int = Field(description="0 male, 1 female")
    weight: Number = Field(description="kg")
    height: int = Field(description="cm")
    dob: date
    IsAllowedToSendMarketingEmails: bool
    avatar: str | None = Field(description="The avatar's path under /api/auth/avatar/, or null")
    jersey: str
    team: str | None
    role: str = Field(description="rider, race_control, finance or admin")
    src_verification_status: str = Field(description="not submitted, pending, approved or rejected")


# --- An event (spec 2 section 3 "Event") -----------------------------------------------------------------


class Money(AnswerModel):
    currency: str = Field(description="AED")
    amount: float
    usd: float = Field(description="The amount in USD at the event's conversion rate")


class Participants(AnswerModel):
    booked: int
    capacity: int


@stored_content
class CategoryLine(TypedDict, total=False):
    time: str
    distance: str
    elevation: str


@stored_content
class EventLinks(TypedDict, total=False):
    technical_guide: str
    guideline: str
    ruleset: str
    requirements: str
    course_details: str


@stored_content
class Winner(TypedDict, total=False):
    position: int
    name: str
    category: str
    time: str
    prize: Annotated[int, Field(description="fils")]


@stored_content
class Prize(TypedDict, total=False):
    position: int
    amount: Annotated[int, Field(description="fils")]


@stored_content
class PrizeGate(TypedDict, total=False):
    """One prize table: a category overall, or a category on one day of a series."""

    day: int
    category: str
    prizes: list[Prize]


@stored_content
class PrizeStructure(TypedDict, total=False):
    templateType: Annotated[str, Field(description="SERIES (overall and per-day tables) or another template")]
    currency: str
    conversionRate: Annotated[Number, Field(description="USD per AED")]
    headings: list[str]
    overall_headings: list[str]
    day_headings: list[str]
    categories: list[str]
    overall: list[PrizeGate]
    day: list[PrizeGate]


class EventSummary(AnswerModel):
    """An event, its times in GMT+4 and its money in AED with USD."""

    id: int
    name: str
    date: date
    time: str = Field(description="HH:MM, GMT+4")
    date_close: date
    time_close: str = Field(description="HH:MM, GMT+4")
    image: str
    details: str = Field(description="Rich text (HTML)")
    prizeMoney: Money
    distance: Number = Field(description="km")
    elevation: int = Field(description="m")
    maxGrade: Number = Field(description="%")
    map: str
    gender: int = Field(description="0 men, 1 women, 2 open")
    event_type: str = Field(description="featured, all or open")
    accept: bool = Field(description="Whether registration is open")
    participants: Participants
    categories: dict[str, list[CategoryLine]] = Field(description="Category 1 to 4, each a list of lines")
    route_type: str
    laps: int
    links: EventLinks
    winners: list[Winner]
    event_prize_money: PrizeStructure
    dob_required: bool
    identification: bool
    device: bool
    team: bool
    otp: bool
    phone: bool
    weigh_ins: bool = Field(
        description="Riders declare their weight before and/or after the race, each within its window "
        "(weight_submission_data of the rider default data; POST /api/weight-submissions/store)"
    )
    team_help_text: str
    countries: list[str] = Field(description="The dial codes a phone may have")


class EventWithStatus(EventSummary):
    """An event with the rider's own state on it (no session: as a visitor)."""

    ustatus: str = Field(description="The rider's registration: pending, approved, declined, or empty")
    state_message: str
    can_register: bool
