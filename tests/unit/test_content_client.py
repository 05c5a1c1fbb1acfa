"""The content client over the wire: every call against the embedded service, the menus and site-info
caches, nh3 sanitising of everything the service sends, and the errors a rider sees."""

import asyncio
import dataclasses
import shutil
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse

from cycling_site.clients import content
from cycling_site.embedded.content import service as content_service
from cycling_site.messages import content as msg
from cycling_site.settings import PROJECT_ROOT
from cycling_site.wire import content as wire

pytestmark = pytest.mark.anyio

HOSTILE_PAGE = """---
title: Hostile
banner: "javascript:alert(1)"
app_store_url: "javascript:alert(2)"
ios: "<iframe src='https://evil.example.com'></iframe>Fine text"
---
Hello <script>alert(3)</script>
<img src="/content/first-ride.svg" onerror="alert(4)" alt="ride">
<a href="javascript:alert(5)">click</a> <a href="/events">events</a>
"""


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    """A copy of the repository's content folder, served by an app of its own for this test."""
    folder = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", folder)
    app = FastAPI()
    content_service.install(app, folder)
    monkeypatch.setattr(content, "_local_app", app)
    monkeypatch.setattr(content, "_cache", {})
    return folder


async def test_pages_articles_faqs_and_social_links(root):
    support = await content.page("support")
    assert support.title == "Support" and support.banner == "/content/banner-support.svg"
    assert "iPhone X or above" in support.ios_html and "Android 9.0 or above" in support.android_html
    assert support.app_store_url.startswith("https://apps.apple.com/")
    assert support.google_play_url.startswith("https://play.google.com/")
    tabs = {category.slug: category.articles for category in support.article_categories}
    assert len(tabs) == 4 and tabs["account-and-payments"] == ()
    card = tabs["racing"][0]
    assert (card.slug, card.name, card.image) == ("race-categories", "Racing", "/content/categories.svg")
    contact = await content.contact_page()
    assert (contact.slug, contact.contact_section_heading) == ("contact-us", "Send us a message")
    for slug in ("ridearena-ruleset", "sunday-race-club-ruleset", "team-uae-ruleset", "al-ula"):
        assert (await content.page(slug)).html.startswith("<")
    article = await content.article("race-categories")
    assert (article.id, article.name) == (card.id, "Racing") and "<table>" in article.html
    topics = await content.faqs()
    assert [topic.topic for topic in topics] == [
        "Account",
        "Racing",
        "Prizes and wallet",
        "Devices and trainers",
    ]
    assert all(3 <= len(topic.questions) <= 5 for topic in topics)
    assert "GMT+4" in topics[1].questions[0].answer_html
    links = await content.social_links()
    assert all(getattr(links, name).startswith("https://") for name in ("facebook", "strava", "youtube"))


async def test_menus_are_nested_sorted_and_cached_until_a_forced_refresh(root, monkeypatch):
    menus = await content.menus()
    assert set(menus) == {"main-menu", "navigation-menu", "community-menu"}
    community = next(item for item in menus["main-menu"] if item.title == "Community")
    assert [child.title for child in community.children] == [
        "Teams",
        "Team UAE",
        "Sunday Race Club",
        "",
        "AlUla Desert Classic",
    ]
    assert "split" in community.children[3].classes
    assert menus["community-menu"][-1].target == "_blank"
    menus_file = root / "menus.yaml"
    menus_file.write_text(menus_file.read_text().replace("title: Events,", "title: Races,"))
    assert (await content.menus())["main-menu"][0].title == "Events"
    assert (await content.menus(force_refresh=True))["main-menu"][0].title == "Races"
    menus_file.write_text(menus_file.read_text().replace("title: Races,", "title: Calendar,"))
    now = content._clock()
    monkeypatch.setattr(content, "_clock", lambda: now + content.MENUS_SECONDS + 1)
    assert (await content.menus())["main-menu"][0].title == "Calendar"


async def test_site_info_is_cached_for_ten_minutes(root, monkeypatch):
    info = await content.site_info()
    assert (info.name, info.home_url, info.site_logo) == ("RideArena", "/", "/logo.svg")
    info_file = root / "site-info.yaml"
    info_file.write_text(info_file.read_text().replace("name: RideArena", "name: RideArena UAE"))
    assert (await content.site_info()).name == "RideArena"
    now = content._clock()
    monkeypatch.setattr(content, "_clock", lambda: now + content.MENUS_SECONDS + 1)
    assert (await content.site_info()).name == "RideArena"
    assert (await content.site_info(force_refresh=True)).name == "RideArena UAE"


async def test_social_links_are_kept_as_long_as_site_info(root, monkeypatch):
    assert (await content.social_links()).facebook.startswith("https://")
    settings_file = root / "settings.yaml"
    settings_file.write_text(settings_file.read_text().replace("facebook", "facebook_gone", 1))
    assert (await content.social_links()).facebook.startswith("https://")
    now = content._clock()
    monkeypatch.setattr(content, "_clock", lambda: now + content.SITE_INFO_SECONDS + 1)
    assert (await content.social_links()).facebook == ""


async def test_scripts_frames_handlers_and_javascript_links_are_removed(root):
    (root / "pages" / "hostile.md").write_text(HOSTILE_PAGE)
    menus_file = root / "menus.yaml"
    menus_file.write_text(menus_file.read_text().replace("url: /events,", "url: 'javascript:alert(6)',", 1))
    page = await content.page("hostile")
    everything = page.html + page.ios_html
    for hostile in ("<script", "alert(", "<iframe", "onerror", "javascript:"):
        assert hostile not in everything
    assert 'src="/content/first-ride.svg"' in page.html and 'href="/events"' in page.html
    assert "Fine text" in page.ios_html
    assert (page.banner, page.app_store_url) == ("", "")
    assert (await content.menus())["main-menu"][0].url == ""


async def test_unknown_slugs_are_not_found(root):
    for call, slug in ((content.page, "no-such-page"), (content.article, "no-such-article")):
        with pytest.raises(content.ContentNotFound) as missing:
            await call(slug)
        assert missing.value.status_code == 404
    with pytest.raises(content.ContentNotFound):
        await content.page("..%2Fsettings")


async def test_a_wrong_api_key_is_refused_with_the_sites_messages(root, monkeypatch):
    wrong = dataclasses.replace(content.settings, content_service_key="not-the-key")
    monkeypatch.setattr(content, "settings", wrong)
    with pytest.raises(content.ContentError) as refused:
        await content.page("about-us")
    assert (refused.value.message, refused.value.status_code) == (msg.NOT_LOADED, 401)
    assert not isinstance(refused.value, content.ContentNotFound)
    with pytest.raises(content.ContentError, match=msg.MENUS_FAILED):
        await content.menus()
    with pytest.raises(content.ContentError, match=msg.SITE_INFO_FAILED):
        await content.site_info()


async def test_an_unreachable_service_fails_with_the_spec_messages(root, monkeypatch):
    unreachable = dataclasses.replace(content.settings, content_service_url="http://127.0.0.1:9")
    monkeypatch.setattr(content, "settings", unreachable)
    with pytest.raises(content.ContentError, match=msg.MENUS_FAILED):
        await content.menus()
    with pytest.raises(content.ContentError, match=msg.SITE_INFO_FAILED):
        await content.site_info()
    with pytest.raises(content.ContentError, match=msg.NOT_LOADED):
        await content.faqs()


@pytest.mark.parametrize("answer", [PlainTextResponse("<html>down</html>"), JSONResponse({"other": []})])
async def test_an_unreadable_answer_is_an_invalid_response(answer, monkeypatch):
    broken = FastAPI()
    broken.add_api_route("/content-service/{path:path}", lambda path: answer)
    monkeypatch.setattr(content, "_local_app", broken)
    monkeypatch.setattr(content, "_cache", {})
    with pytest.raises(content.ContentError, match=msg.MENUS_INVALID):
        await content.menus()
    with pytest.raises(content.ContentError, match=msg.SITE_INFO_INVALID):
        await content.site_info()
    with pytest.raises(content.ContentError, match=msg.NOT_LOADED):
        await content.social_links()


def _counting(app) -> tuple[list[str], object]:
    """The paths of the requests the app is asked, and the app that records them."""
    asked: list[str] = []

    async def counted(scope, receive, send):
        asked.append(scope["path"])
        await app(scope, receive, send)

    return asked, counted


async def test_callers_that_come_while_menus_are_fetched_share_that_one_fetch(root, monkeypatch):
    asked, counted = _counting(content._local_app)
    monkeypatch.setattr(content, "_local_app", counted)
    monkeypatch.setattr(content, "_fetching", {})
    answers = await asyncio.gather(*(content.menus() for _ in range(20)), content.site_info())
    assert all(answer == answers[0] for answer in answers[:20])
    assert answers[0]["main-menu"][0].title == "Events" and answers[20].name == "RideArena"
    assert sorted(asked) == sorted(f"{wire.EMBEDDED_PREFIX}/{path}" for path in (wire.MENUS, wire.SITE_INFO))
    assert content._fetching == {}
    await content.menus(force_refresh=True)
    assert asked.count(f"{wire.EMBEDDED_PREFIX}/{wire.MENUS}") == 2


async def test_a_caller_that_leaves_does_not_cancel_the_fetch_others_wait_for(root, monkeypatch):
    monkeypatch.setattr(content, "_fetching", {})
    first = asyncio.ensure_future(content.menus())
    waiting = asyncio.ensure_future(content.menus())
    await asyncio.sleep(0)
    first.cancel()
    assert (await waiting)["main-menu"][0].title == "Events"
    assert first.cancelled()


async def test_a_shared_fetch_that_fails_fails_for_every_caller_and_the_next_asks_again(root, monkeypatch):
    right = content.settings
    monkeypatch.setattr(content, "settings", dataclasses.replace(right, content_service_key="not-the-key"))
    monkeypatch.setattr(content, "_fetching", {})
    asked, counted = _counting(content._local_app)
    monkeypatch.setattr(content, "_local_app", counted)
    failed = await asyncio.gather(*(content.menus() for _ in range(5)), return_exceptions=True)
    assert [str(error) for error in failed] == [msg.MENUS_FAILED] * 5 and len(asked) == 1
    monkeypatch.setattr(content, "settings", right)
    assert (await content.menus())["main-menu"][0].title == "Events"
