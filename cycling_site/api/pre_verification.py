"""Pre-verification (spec 3 section 7): POST /api/src/verification/submit with the form's seven fields.

Only a rider who has not submitted, or whose verification was rejected, may submit; a second submission
while one is pending is refused with a message, and nothing is stored."""

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, Field, WithJsonSchema

from cycling_site.api.answers import Answer, AnswerModel
from cycling_site.api.deps import DB, CurrentAccount
from cycling_site.api.errors import documented
from cycling_site.api.rules import NO_NUL, requires, text, trimmed
from cycling_site.messages import pre_verification as msg
from cycling_site.services import pre_verification
from cycling_site.services.pre_verification import LINK_MAX, MESSAGE_MAX, Form

router = APIRouter(prefix="/src/verification", tags=["verification"])

TEXT_MAX = 100


class VerificationIn(BaseModel):
    """The form as typed: numbers may come as text, every rule answers its own message."""

    model_config = requires(
        "smartTrainer", "secondaryPowerSource", "weight", "height", "videoLink", "stravaLink", extra="forbid"
    )

    smartTrainer: str = Field(
        default="", max_length=TEXT_MAX, json_schema_extra={"enum": list(pre_verification.SMART_TRAINERS)}
    )
    secondaryPowerSource: str = Field(
        default="",
        max_length=TEXT_MAX,
        json_schema_extra={"enum": list(pre_verification.SECONDARY_POWER_SOURCES)},
    )
    weight: Annotated[
        str | float,
        WithJsonSchema(
            {"type": "number", "minimum": 25, "maximum": 200, "multipleOf": 0.1, "description": "kg"}
        ),
    ] = ""
    height: Annotated[
        str | int, WithJsonSchema({"type": "integer", "minimum": 50, "maximum": 250, "description": "cm"})
    ] = ""
    videoLink: str = Field(
        default="",
        max_length=LINK_MAX * 2,
        description="An unlisted video-site link",
        json_schema_extra=text(LINK_MAX, pattern=r"^\s*https?://[^\s/?#@:\x00]+(?:[/?#][^\s\x00]*)?\s*$"),
    )
    stravaLink: str = Field(
        default="",
        max_length=LINK_MAX * 2,
        json_schema_extra=trimmed(LINK_MAX),
    )
    message: str = Field(
        default="",
        max_length=MESSAGE_MAX * 2,
        json_schema_extra={"maxLength": MESSAGE_MAX, "pattern": NO_NUL},
    )


class Submitted(AnswerModel):
    status: bool
    message: str


@router.post("/submit", responses=documented(400, 401, 403, 413, 503))
def submit(body: VerificationIn, account: CurrentAccount, session: DB) -> Answer[Submitted]:
    form = Form(**{name: str(value) for name, value in body.model_dump().items()})
    pre_verification.submit(session, account, form)
    return Answer[Submitted](data=Submitted(status=True, message=msg.SUBMITTED))
