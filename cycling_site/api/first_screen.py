"""The first screen of the public pages in the HTML the server sends.

The built pages are prerendered with the state's first values: "Loading events...", an empty FAQ, the
event page with the general title. Until the live connection opened and the page's data came back over it,
that was all a phone showed and all a crawler read. Each public page now comes with its real content: when
the server sends the page's HTML it puts a snapshot of that content, read from the same services as the
page's state, into the page's first-screen slot (cycling_site/ui/first_screen.py), and an event's page gets
its own title and description. React leaves the slot as it is when it takes the page over, and the live
data replaces it.

Snapshots rather than React Router's prerendering with data: that renders at build time, and events,
teams and content change while the site runs. Each snapshot is read at most once every few seconds
(caching.PUBLIC_SECONDS, as the public lists of the REST API), for every visitor: it is the visitors' view,
with nothing of a rider in it. Every text is escaped; HTML from the content service and event details is
the sanitised HTML the pages show.
"""

import asyncio
import html
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import nh3
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.api.caching import PUBLIC_SECONDS
from cycling_site.bundling import EVENT_TEMPLATE_PATH, after_first_paint
from cycling_site.clients import content
from cycling_site.db import in_session
from cycling_site.messages import site as site_msg
from cycling_site.models.events import Event
from cycling_site.routes import path_of
from cycling_site.services import events, profile, teams, tokens, tracks
from cycling_site.settings import settings

SLOT_ID = "first-screen"
CLASS = "first-screen"
# The description a page's live data replaces: React adds its own (it keys a page's meta tags by their
# content), and the page removes this one once its own is there (ui/first_screen.py).
HEAD_MARK = "data-first-screen"
# The rider's side of the header: their avatar (or initial) while the live connection opens.
RIDER_SLOT_ID = "rider-first-screen"
EVENT_PATH = re.compile(r"^/event/detail/(\d{1,10})/?$")
# As the event list's first page shows them.
EVENTS_PER_PAGE = 10
CONTENT_PAGES = ("support", "terms", "privacy", "about", "team_uae", "sunday_race_club", "al_ula")
GENDER_LABELS = {0: "Men", 1: "Women", 2: "Open"}
T = TypeVar("T")
# The pictures' sizes (the spec's), which hold their place until they are in: a content page's banner drawn
# at an event picture's size moved the page below it up once it came.
IMAGE_SIZE = (1140, 625)
BANNER_SIZE = (1800, 600)

_EMPTY_SLOT = re.compile(rf'(<div\b[^>]*\bid="{SLOT_ID}"[^>]*>)(</div>)')
_EMPTY_RIDER_SLOT = re.compile(rf'(<div\b[^>]*\bid="{RIDER_SLOT_ID}"[^>]*>)(</div>)')
_TITLE = re.compile(r"<title>[^<]*</title>")
# Every page's first screen is in its HTML: a snapshot, a public page prerendered whole (the sign-in
# form), or a signed-in page's frame (header, the rider's badge, the page's own words and skeletons). It
# draws as soon as its stylesheet is in. The build's modulepreload links had the page's scripts (250 KB)
# share a phone's connection with the stylesheet, which the first paint waited for: 2.2 s of the largest
# paint's 2.9 s on Lighthouse's phone. Without them the scripts come by the page's own imports, a few
# round trips later, to take the page over (the dashboard's largest paint on Lighthouse's phone: 3.0 s ->
# 1.1 s).
_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="[^"]*"/>')
_DESCRIPTION = re.compile(r'<meta content="[^"]*" name="description"/>')


@dataclass(frozen=True)
class FirstScreen:
    """A page's content as HTML, and the title and description of a page that has its own."""

    html: str
    title: str = ""
    description: str = ""


def _text(value: object) -> str:
    return html.escape(str(value), quote=True)


def _card(*parts: str, tag: str = "section") -> str:
    return f'<{tag} class="fs-card">{"".join(parts)}</{tag}>'


def _image(src: str, alt: str = "", css: str = "", size: tuple[int, int] = IMAGE_SIZE) -> str:
    if not src:
        return ""
    extra = f' class="{css}"' if css else ""
    width, height = size
    sized = f'width="{width}" height="{height}"'
    return f'<img src="{_text(src)}" alt="{_text(alt)}"{extra} {sized} loading="eager">'


def _prize(event: Event) -> str:
    prize, prize_usd = events.money_text(event.prize_money, events.conversion_rate(event))
    amounts = f'<span class="fs-prize">{_text(prize)}</span> <span class="fs-muted">{_text(prize_usd)}</span>'
    return f"<p>{amounts}</p>"


def _riders(event: Event) -> str:
    return f"{event.booked} / {event.capacity}"


def _event_summary(event: Event) -> str:
    facts = [events.when_text(event.starts_at), GENDER_LABELS.get(event.gender, ""), _riders(event)]
    return _card(
        _image(event.image),
        f'<h3><a href="/event/detail/{event.id}">{_text(event.name)}</a></h3>',
        f'<p class="fs-muted">{_text(" · ".join(facts))}</p>',
        _prize(event),
        tag="article",
    )


def _event_group(title: str, found: list[Event]) -> str:
    if not found:
        return ""
    return f"<h2>{_text(title)}</h2>" + "".join(_event_summary(event) for event in found)


def event_list(session) -> FirstScreen:
    upcoming = events.upcoming_page(session, 1, EVENTS_PER_PAGE)
    past = events.past(session)
    groups = [
        _event_group("Featured", upcoming.featured),
        _event_group("All events", upcoming.others),
        _event_group("Past events", past),
    ]
    return FirstScreen("".join(groups))


def event_page(session, event_id: str) -> FirstScreen | None:
    try:
        event = events.get_event(session, event_id)
    except events.EventNotFound:
        return None
    when = events.when_text(event.starts_at)
    distance, elevation = f"{event.distance_km:g} km", f"{event.elevation_m:,} m"
    facts = [("DISTANCE", distance), ("ELEVATION", elevation), ("MAX GRADE", f"{event.max_grade:g} %")]
    facts.append(("RIDERS", _riders(event)))
    body = _card(
        _image(event.image, css="fs-event-image"),
        f'<h1>{_text(event.name)}</h1><p class="fs-muted">{_text(when)}</p>',
        _prize(event),
        "<dl>" + "".join(f"<dt>{label}</dt><dd>{_text(value)}</dd>" for label, value in facts) + "</dl>",
    ) + _card("<h2>Course</h2>", nh3.clean(event.details), _image(event.map_image, "Course map"))
    prize = events.money_text(event.prize_money, events.conversion_rate(event))[0]
    site = settings.site_name
    description = site_msg.EVENT_DESCRIPTION.format(
        name=event.name, when=when, distance=distance, elevation=elevation, prize=prize, site=site
    )
    return FirstScreen(body, site_msg.PAGE_TITLE.format(title=event.name, site=site), description)


def team_list(session) -> FirstScreen:
    found = teams.public_teams(session)
    cards = "".join(
        _card(
            f"<h3>{_text(team.name)}</h3>",
            f'<p class="fs-muted">{_text(teams.country_name(team.country))} · {team.member_count} members</p>'
            if team.country
            else f'<p class="fs-muted">{team.member_count} members</p>',
            f"<p>{_text(team.description)}</p>" if team.description else "",
            tag="article",
        )
        for team in found.teams
    )
    return FirstScreen(f'<div class="fs-grid">{cards}</div>')


def track_list(session) -> FirstScreen:
    cards = []
    for track in tracks.list_tracks(session):
        text = f"<div><h2>{_text(track.title)}</h2><p>{_text(track.description)}</p></div>"
        cards.append(f'<section class="fs-card fs-track">{_image(track.image, track.title)}{text}</section>')
    return FirstScreen(f'<div class="fs-grid">{"".join(cards)}</div>')


async def content_page(slug: str) -> FirstScreen | None:
    try:
        found = await content.page(slug)
    except content.ContentError:
        return None
    body = _image(found.banner, "", "fs-banner", BANNER_SIZE) + _card(
        f"<h1>{_text(found.title)}</h1>", f'<div class="fs-prose">{found.html}</div>'
    )
    if found.article_categories:
        body += "".join(
            _card(
                f"<h2>{_text(category.name)}</h2>",
                "<ul>"
                + "".join(
                    f'<li><a href="/article/{_text(article.slug)}">{_text(article.title)}</a></li>'
                    for article in category.articles
                )
                + "</ul>",
            )
            for category in found.article_categories
        )
    return FirstScreen(body)


async def faqs() -> FirstScreen | None:
    try:
        topics = await content.faqs()
    except content.ContentError:
        return None
    return FirstScreen(
        "".join(
            _card(
                f"<h2>{_text(topic.topic)}</h2>",
                f'<p class="fs-muted">{_text(topic.topic_description)}</p>',
                "".join(
                    f"<details><summary>{_text(item.question)}</summary>{item.answer_html}</details>"
                    for item in topic.questions
                ),
            )
            for topic in topics
        )
    )


def _from_database(read: Callable[..., T | None], *args: object) -> Callable[[], Awaitable[T | None]]:
    async def build() -> T | None:
        try:
            return await in_session(read, *args)
        except SQLAlchemyError:
            return None

    return build


@dataclass(frozen=True)
class Served:
    """What the server sends for a page: the built page it starts from (its address among the built files)
    and how its snapshot is read."""

    template: str
    key: str
    build: Callable[[], Awaitable[FirstScreen | None]]


def served(path: str) -> Served | None:
    """The page at `path` if it is one with a first screen of its own."""
    found = EVENT_PATH.match(path)
    if found:
        event_id = found.group(1)
        return Served(EVENT_TEMPLATE_PATH, f"event:{event_id}", _from_database(event_page, event_id))
    path = path.rstrip("/") or "/"
    if path in (path_of("events"), path_of("home"), path_of("event_list")):
        return Served(path, "events", _from_database(event_list))
    if path == path_of("teams"):
        return Served(path, "teams", _from_database(team_list))
    if path == path_of("routes"):
        return Served(path, "tracks", _from_database(track_list))
    if path == path_of("faqs"):
        return Served(path, "faqs", faqs)
    if path in {path_of(name) for name in CONTENT_PAGES}:
        slug = path.strip("/")
        return Served(path, f"page:{slug}", lambda: content_page(slug))
    return None


# Pages wait at most this long for a first snapshot (from when its read began); after that they go out as
# built, and the snapshot, once read, goes with the pages after them. The built pages are answered without
# the database (api/built_files.py): a locked database must not hold them for long.
FIRST_WAIT_S = 1.0
# A signed-in rider's page waits at most this long for their session's check (a read by primary key).
RIDER_WAIT_S = 0.25
_kept: dict[str, tuple[float, FirstScreen | None]] = {}
_reading: dict[str, tuple[asyncio.Task, float]] = {}


async def _read(page: Served) -> FirstScreen | None:
    try:
        screen = await page.build()
        _kept[page.key] = (time.monotonic() + PUBLIC_SECONDS, screen)
        return screen
    finally:
        del _reading[page.key]


def _start_reading(page: Served) -> tuple[asyncio.Task, float]:
    if page.key not in _reading:
        _reading[page.key] = (asyncio.create_task(_read(page)), time.monotonic() + FIRST_WAIT_S)
    return _reading[page.key]


async def snapshot(page: Served) -> FirstScreen | None:
    """The page's first screen, read at most once every PUBLIC_SECONDS for every visitor. An older one is
    answered while the new one is read."""
    found = _kept.get(page.key)
    if found is not None:
        if found[0] <= time.monotonic():
            _start_reading(page)
        return found[1]
    reading, deadline = _start_reading(page)
    try:
        return await asyncio.wait_for(asyncio.shield(reading), max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        return None


def forget() -> None:
    """The next page asked for is read afresh (tests, and after a change that must show at once)."""
    _kept.clear()


def rider_badge(session, token: str, user_id: str) -> str | None:
    """The signed-in rider's avatar, or their initial, as the header shows it; None for no valid session."""
    check = tokens.check_session(session, token, user_id)
    if check.account is None:
        return None
    avatar = profile.avatar_url(check.account.avatar)
    if avatar:
        return f'<img class="fs-avatar" src="{_text(avatar)}" alt="" width="40" height="40">'
    return f'<span class="fs-avatar">{_text((check.account.firstname[:1] or "?").upper())}</span>'


async def rider(token: str, user_id: str) -> str | None:
    """The rider's badge, read for each page (it is theirs alone) within RIDER_WAIT_S; None after that."""
    if not token or not user_id:
        return None
    reading = asyncio.ensure_future(_from_database(rider_badge, token, user_id)())
    try:
        return await asyncio.wait_for(reading, RIDER_WAIT_S)
    except TimeoutError:
        return None


def with_first_screen(built: str, screen: FirstScreen | None, badge: str | None = None) -> str:
    """The built page with the snapshot in its slot and its own title and description when it has them, and
    the signed-in rider's badge in the header. It paints before its scripts come, which take it over after
    that first paint."""
    page = after_first_paint(built)
    if badge is not None:
        page = _EMPTY_RIDER_SLOT.sub(lambda slot: slot.group(1) + badge + slot.group(2), page, count=1)
    page = _MODULE_PRELOAD.sub("", page)
    if screen is None:
        return page
    page = _EMPTY_SLOT.sub(
        lambda slot: f'{slot.group(1)}<div class="{CLASS}">{screen.html}</div>{slot.group(2)}', page, count=1
    )
    if screen.title:
        page = _TITLE.sub(lambda _: f"<title>{_text(screen.title)}</title>", page, count=1)
    if screen.description:
        page = _DESCRIPTION.sub(
            lambda _: f'<meta content="{_text(screen.description)}" name="description" {HEAD_MARK}=""/>',
            page,
            count=1,
        )
    return page
