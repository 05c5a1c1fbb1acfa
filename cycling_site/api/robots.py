"""/robots.txt: crawlers may read every page; what is not a page (the API, the demo mailbox, uploads) is
not for them. A signed-in page holds nothing without a session: a crawler is shown the sign-in page, so
keeping it crawlable costs nothing and keeps each page's search audit whole."""

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

router = APIRouter(include_in_schema=False)

DISALLOWED = ("/api/", "/dev/", "/_upload/")


def robots_txt() -> str:
    return "\n".join(["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED)]) + "\n"


@router.get("/robots.txt", response_class=PlainTextResponse)
def robots() -> PlainTextResponse:
    return PlainTextResponse(robots_txt(), headers={"Cache-Control": "public, max-age=3600"})
