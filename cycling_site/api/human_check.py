"""The ALTCHA challenge the human-check widget fetches."""

from fastapi import APIRouter, Response
from pydantic import Field

from cycling_site.api.answers import AnswerModel
from cycling_site.services import human_check

router = APIRouter(tags=["human check"])


class AltchaChallenge(AnswerModel):
    """An ALTCHA proof-of-work challenge (v1), as the widget reads it; never cached."""

    algorithm: str = Field(description="SHA-256")
    challenge: str
    maxnumber: int = Field(description="The highest number the solution may be")
    salt: str = Field(description="With the challenge's expiry in its query part")
    signature: str


@router.get("/altcha/challenge")
def challenge(response: Response) -> AltchaChallenge:
    response.headers["Cache-Control"] = "no-store"
    return AltchaChallenge(**human_check.new_challenge())
