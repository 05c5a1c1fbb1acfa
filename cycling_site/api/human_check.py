"""The ALTCHA challenge the human-check widget fetches."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from cycling_site.services import human_check

router = APIRouter(tags=["human check"])


@router.get("/altcha/challenge")
def challenge() -> JSONResponse:
    return JSONResponse(human_check.new_challenge(), headers={"Cache-Control": "no-store"})
