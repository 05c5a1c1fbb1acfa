"""Client of the content service (spec 2 section 7, spec 3 section 7): pages, articles, FAQs, social
links, menus and site info, with the API key in its header.

With no CONTENT_SERVICE_URL the embedded service answers: in this process (`InProcessClient`) once the
app serving it has registered itself, otherwise at SITE_URL/content-service. Every HTML field and link is
sanitised here with nh3: the site never trusts a content service's HTML, remote or not. Menus are kept
for 300 s and site info for 600 s (spec 3 section 9) unless a caller forces a refresh; the social links,
site settings too, as long as site info.
"""

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import nh3
from starlette.types import ASGIApp

from cycling_site.clients.in_process import InProcessClient
from cycling_site.clients.pooled import PerLoop
from cycling_site.messages import content as msg
from cycling_site.settings import settings
from cycling_site.wire import content as wire

TIMEOUT = httpx.Timeout(15.0)
MENUS_SECONDS = 300
SITE_INFO_SECONDS = 600
SAFE_SCHEMES = ("https://", "http://", "mailto:", "tel:")

_local_app: ASGIApp | None = None
_clock = time.monotonic
_cache: dict[str, tuple[float, Any]] = {}
_fetching: dict[str, asyncio.Task] = {}
T = TypeVar("T")


class ContentError(Exception):
    """The content could not be fetched; .message is shown to the rider."""

    def __init__(self, message: str, status_code: int = 502):
        super().__init__(message)
        self.message = message
        self.status_code = status_code


class ContentNotFound(ContentError):
    """Unknown slug: pages use the site's not-found handling."""


@dataclass(frozen=True)
class MenuItem:
    id: int
    title: str
    url: str
    target: str
    attr_title: str
    classes: str
    children: tuple["MenuItem", ...]


@dataclass(frozen=True)
class SiteInfo:
    name: str
    home_url: str
    site_logo: str
    site_logo_dark: str


@dataclass(frozen=True)
class SocialLinks:
    facebook: str
    twitter: str
    linkedin: str
    instagram: str
    youtube: str
    strava: str


@dataclass(frozen=True)
class ArticleCard:
    id: int
    slug: str
    title: str
    image: str
    name: str


@dataclass(frozen=True)
class ArticleCategory:
    name: str
    slug: str
    articles: tuple[ArticleCard, ...]


@dataclass(frozen=True)
class Page:
    slug: str
    title: str
    banner: str
    html: str
    contact_section_heading: str = ""
    ios_heading: str = ""
    ios_html: str = ""
    android_heading: str = ""
    android_html: str = ""
    app_store_url: str = ""
    google_play_url: str = ""
    article_categories: tuple[ArticleCategory, ...] = ()


@dataclass(frozen=True)
class Article:
    id: int
    slug: str
    title: str
    image: str
    name: str
    html: str


@dataclass(frozen=True)
class FaqQuestion:
    question: str
    answer_html: str


@dataclass(frozen=True)
class FaqTopic:
    topic: str
    topic_description: str
    questions: tuple[FaqQuestion, ...]


def serve_embedded_from(app: ASGIApp) -> None:
    global _local_app
    _local_app = app


def clear_cache() -> None:
    """Forgets cached menus and site info (tests, and a site that changes content service)."""
    _cache.clear()
    _fetching.clear()


def _new_client() -> httpx.AsyncClient | InProcessClient:
    headers = {wire.API_KEY_HEADER: settings.content_service_key, "accept": "application/json"}
    if settings.content_service_url:
        return httpx.AsyncClient(base_url=settings.content_service_url, headers=headers, timeout=TIMEOUT)
    if _local_app is not None:
        return InProcessClient(_local_app, f"http://embedded{wire.EMBEDDED_PREFIX}", headers)
    return httpx.AsyncClient(
        base_url=settings.site_url + wire.EMBEDDED_PREFIX, headers=headers, timeout=TIMEOUT
    )


_pool = PerLoop(
    _new_client,
    lambda client: client.aclose(),
    lambda: (settings.content_service_url, settings.content_service_key, id(_local_app)),
)


async def _fetch(method: str, path: str, failed: str, invalid: str, by_slug: bool = False) -> Any:
    """The answer's JSON; a transport failure or refusal raises `failed`, unreadable JSON `invalid`, and
    a 404 for a slug ContentNotFound."""
    try:
        response = await _pool.get().request(method, path)
    except httpx.HTTPError as exc:
        raise ContentError(failed, 503) from exc
    if by_slug and response.status_code == 404:
        raise ContentNotFound(msg.NOT_FOUND, 404)
    if not response.is_success:
        raise ContentError(failed, response.status_code)
    try:
        return response.json()
    except ValueError as exc:
        raise ContentError(invalid) from exc


async def _data(method: str, path: str, by_slug: bool = False) -> Any:
    answer = await _fetch(method, path, msg.NOT_LOADED, msg.NOT_LOADED, by_slug)
    if not isinstance(answer, dict) or "data" not in answer:
        raise ContentError(msg.NOT_LOADED)
    return answer["data"]


def _html(value: Any) -> str:
    return nh3.clean(str(value or ""))


def _url(value: Any) -> str:
    """A site path or an http(s)/mailto/tel address; anything else (javascript:, data:) becomes ""."""
    url = str(value or "").strip()
    if (url.startswith("/") and not url.startswith("//")) or url.lower().startswith(SAFE_SCHEMES):
        return url
    return ""


def _plain(value: Any) -> str:
    return str(value or "")


def _card(item: dict) -> ArticleCard:
    return ArticleCard(
        id=int(item["id"]),
        slug=_plain(item["slug"]),
        title=_plain(item.get("title")),
        image=_url(item.get("image")),
        name=_plain(item.get("name")),
    )


def _page(data: dict) -> Page:
    categories = tuple(
        ArticleCategory(
            name=_plain(category.get("name")),
            slug=_plain(category.get("slug")),
            articles=tuple(_card(item) for item in category.get("articles") or []),
        )
        for category in data.get("article_categories") or []
    )
    return Page(
        slug=_plain(data["slug"]),
        title=_plain(data.get("title")),
        banner=_url(data.get("banner")),
        html=_html(data.get("content")),
        contact_section_heading=_plain(data.get("contact_section_heading")),
        ios_heading=_plain(data.get("ios_heading")),
        ios_html=_html(data.get("ios_content")),
        android_heading=_plain(data.get("android_heading")),
        android_html=_html(data.get("android_content")),
        app_store_url=_url(data.get("app_store_url")),
        google_play_url=_url(data.get("google_play_url")),
        article_categories=categories,
    )


def _readable(build, data: Any) -> Any:
    try:
        return build(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ContentError(msg.NOT_LOADED) from exc


async def page(slug: str) -> Page:
    return _readable(_page, await _data("GET", wire.PAGE.format(slug=slug), by_slug=True))


async def contact_page() -> Page:
    """The contact page's data, asked for with POST as the content site expects (spec 2 section 7)."""
    return _readable(_page, await _data("POST", wire.PAGE.format(slug="contact-us"), by_slug=True))


def _article(data: dict) -> Article:
    return Article(
        id=int(data["id"]),
        slug=_plain(data["slug"]),
        title=_plain(data.get("title")),
        image=_url(data.get("image")),
        name=_plain(data.get("name")),
        html=_html(data.get("content")),
    )


async def article(slug: str) -> Article:
    return _readable(_article, await _data("GET", wire.ARTICLE.format(slug=slug), by_slug=True))


def _faqs(data: list) -> tuple[FaqTopic, ...]:
    return tuple(
        FaqTopic(
            topic=_plain(topic.get("topic")),
            topic_description=_plain(topic.get("topic_description")),
            questions=tuple(
                FaqQuestion(question=_plain(item.get("question")), answer_html=_html(item.get("answer")))
                for item in topic.get("questions") or []
            ),
        )
        for topic in data
    )


async def faqs() -> tuple[FaqTopic, ...]:
    return _readable(_faqs, await _data("GET", wire.FAQS))


async def social_links() -> SocialLinks:
    """Site settings like site info, kept as long: every fresh page's footer shows them."""
    return await _kept("social_links", SITE_INFO_SECONDS, _fetch_social_links)


async def _fetch_social_links() -> SocialLinks:
    data = await _data("GET", wire.SETTING)
    return _readable(
        lambda d: SocialLinks(**{name: _url(d.get(name)) for name in wire.SOCIAL_NETWORKS}), data
    )


def _menu_items(items: list[dict]) -> tuple[MenuItem, ...]:
    """Nests the flat items by parent, each level sorted by menu_order."""
    by_parent: dict[int, list[dict]] = {}
    for item in items:
        by_parent.setdefault(int(item.get("parent") or 0), []).append(item)

    def level(parent: int, seen: frozenset[int]) -> tuple[MenuItem, ...]:
        siblings = sorted(by_parent.get(parent, []), key=lambda item: int(item.get("menu_order") or 0))
        return tuple(
            MenuItem(
                id=int(item["ID"]),
                title=_plain(item.get("title")),
                url=_url(item.get("url")),
                target="_blank" if item.get("target") == "_blank" else "",
                attr_title=_plain(item.get("attr_title")),
                classes=_plain(item.get("classes")),
                children=() if int(item["ID"]) in seen else level(int(item["ID"]), seen | {int(item["ID"])}),
            )
            for item in siblings
        )

    return level(0, frozenset({0}))


async def _kept(key: str, seconds: int, fetch: Callable[[], Awaitable[T]], force_refresh: bool = False) -> T:
    """`fetch()`'s answer, kept for `seconds` unless a caller forces a refresh. Callers that come while it
    is being fetched wait for that one fetch: when the site had just started, a burst of page loads asked
    the service once per page, and the embedded one parsed its files once per page."""
    hit = _cache.get(key)
    if hit and hit[0] > _clock() and not force_refresh:
        return hit[1]
    loop = asyncio.get_running_loop()
    shared = _fetching.get(key)
    if force_refresh or shared is None or shared.get_loop() is not loop:
        shared = _fetching[key] = loop.create_task(_fetch_and_keep(key, seconds, fetch))
        # A failure nobody is left waiting for (every caller gone) is not reported as never retrieved.
        shared.add_done_callback(lambda task: task.cancelled() or task.exception())
    # Shielded: a caller that goes away (a page left) does not cancel the fetch the others wait for.
    return await asyncio.shield(shared)


async def _fetch_and_keep(key: str, seconds: int, fetch: Callable[[], Awaitable[T]]) -> T:
    try:
        answer = await fetch()
        _cache[key] = (_clock() + seconds, answer)
        return answer
    finally:
        if _fetching.get(key) is asyncio.current_task():
            del _fetching[key]


async def menus(force_refresh: bool = False) -> dict[str, tuple[MenuItem, ...]]:
    return await _kept("menus", MENUS_SECONDS, _fetch_menus, force_refresh)


async def _fetch_menus() -> dict[str, tuple[MenuItem, ...]]:
    answer = await _fetch("GET", wire.MENUS, msg.MENUS_FAILED, msg.MENUS_INVALID)
    try:
        listed = {menu["menu_slug"]: menu["items"] for menu in answer["menus"]}
        result = {slug: _menu_items(listed.get(slug) or []) for slug in wire.MENU_SLUGS}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ContentError(msg.MENUS_INVALID) from exc
    return result


async def site_info(force_refresh: bool = False) -> SiteInfo:
    return await _kept("site_info", SITE_INFO_SECONDS, _fetch_site_info, force_refresh)


async def _fetch_site_info() -> SiteInfo:
    answer = await _fetch("GET", wire.SITE_INFO, msg.SITE_INFO_FAILED, msg.SITE_INFO_INVALID)
    try:
        info = SiteInfo(
            name=_plain(answer["name"]),
            home_url=_url(answer.get("home_url")),
            site_logo=_url(answer.get("site_logo")),
            site_logo_dark=_url(answer.get("site_logo_dark")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ContentError(msg.SITE_INFO_INVALID) from exc
    return info
