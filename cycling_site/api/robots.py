"""/robots.txt: crawlers may read the public pages; the rider's own pages, the consoles, the API and the
demo mailbox are not for them. Built from the route table, so a new private route is listed at once."""

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from cycling_site.routes import ROUTES

router = APIRouter(include_in_schema=False)

# Private whatever the route table says: the rider's own area, the API, the demo mailbox, uploads.
ALWAYS_DISALLOWED = ("/user/", "/api/", "/dev/", "/_upload/")


def _static_prefix(path: str) -> str:
    """The part of a route's path before its first parameter: what a robots.txt rule can name."""
    return path.split("[", 1)[0]


def _outermost(prefixes: set[str]) -> list[str]:
    return sorted(p for p in prefixes if not any(o != p and p.startswith(o) for o in prefixes))


def robots_txt() -> str:
    private = {_static_prefix(route.path) for route in ROUTES if route.auth_required}
    disallowed = _outermost(private | set(ALWAYS_DISALLOWED))
    # A public page under a private route's prefix (/event/detail/ under /event/): the longer rule wins.
    allowed = sorted(
        {
            _static_prefix(route.path)
            for route in ROUTES
            if not route.auth_required
            and not _static_prefix(route.path).startswith(ALWAYS_DISALLOWED)
            and any(_static_prefix(route.path).startswith(prefix) for prefix in disallowed)
        }
    )
    lines = ["User-agent: *", *(f"Allow: {p}" for p in allowed), *(f"Disallow: {p}" for p in disallowed)]
    return "\n".join(lines) + "\n"


@router.get("/robots.txt", response_class=PlainTextResponse)
def robots() -> PlainTextResponse:
    return PlainTextResponse(robots_txt(), headers={"Cache-Control": "public, max-age=3600"})
