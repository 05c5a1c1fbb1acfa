"""The content pages' and the site chrome's states over the embedded content service: what a page shows,
where an unknown slug goes, the error a refused key shows, the chrome's fallback, d=m, and that a script or
a frame in the content never reaches the page."""

import dataclasses
import shutil
from pathlib import Path

import pytest
from fastapi import FastAPI
from reflex.constants import RouteVar
from reflex.istate.data import RouterData
from reflex.state import State

import cycling_site.cycling_site  # noqa: F401  (the app: every state registered)
from cycling_site.clients import content
from cycling_site.embedded.content import service as content_service
from cycling_site.messages import content as msg
from cycling_site.settings import PROJECT_ROOT, settings
from cycling_site.state.content import ChromeState, ContentState

pytestmark = pytest.mark.anyio

HOSTILE = """---
title: Hostile
banner: ""
ios: "<iframe src='https://evil.example.com'></iframe>Devices"
---
Hello <script>alert(1)</script><iframe src="https://evil.example.com"></iframe>
<img src="/content/first-ride.svg" onerror="alert(2)" alt="ride">
"""


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", folder)
    app = FastAPI()
    content_service.install(app, folder)
    monkeypatch.setattr(content, "_local_app", app)
    monkeypatch.setattr(content, "_cache", {})
    return folder


def _state(cls, path: str):
    top = State(_reflex_internal_init=True)
    top.router = RouterData.from_router_data(
        {RouteVar.HEADERS: {"origin": "http://site"}, RouteVar.ORIGIN: path}
    )
    return top.get_substate(cls.get_full_name().split(".")[1:])


async def _run(cls, handler: str, path: str):
    """The state after the handler ran, and the events it returned (a redirect for an unknown slug)."""
    state = _state(cls, path)
    run = cls.event_handlers[handler].fn(state)
    if hasattr(run, "__aiter__"):
        return state, [event async for event in run if event is not None]
    await run
    return state, []


def _redirects(events) -> list[str]:
    return [
        {str(key): str(value) for key, value in event.args}["path"].strip('"')
        for event in events
        if event.handler.fn.__qualname__ == "_redirect"
    ]


def _use_key(monkeypatch, key: str) -> None:
    monkeypatch.setattr(content, "settings", dataclasses.replace(settings, content_service_key=key))


async def test_a_content_page_shows_its_title_banner_and_html(root):
    state, events = await _run(ContentState, "load_page", "/about-us")
    assert (state.loading, state.error, events) == (False, "", [])
    assert state.title == "About us" and state.banner == "/content/banner-about.svg"
    assert "<p>" in state.html


async def test_the_support_page_has_devices_categories_and_store_links(root):
    state, _ = await _run(ContentState, "load_page", "/support")
    assert state.ios_heading == "Recommended iOS devices" and "iOS 11 or later" in state.ios_html
    assert "Android 9.0 or above" in state.android_html
    assert state.app_store_url.startswith("https://") and state.google_play_url.startswith("https://")
    by_slug = {category.slug: category for category in state.categories}
    assert state.first_category == "getting-started"
    assert len(by_slug["getting-started"].articles) >= 4
    assert by_slug["account-and-payments"].articles == []


async def test_a_ruleset_article_and_faqs_load(root):
    ruleset, _ = await _run(ContentState, "load_page", "/ridearena-ruleset")
    assert ruleset.title == "RideArena ruleset" and "<table>" in ruleset.html
    article, _ = await _run(ContentState, "load_article", "/article/first-ride")
    assert article.title == "Your first ride in five minutes" and article.image == "/content/first-ride.svg"
    faqs, _ = await _run(ContentState, "load_faqs", "/faqs")
    assert [topic.topic for topic in faqs.topics][0] == "Account"
    assert all(question.answer_html for topic in faqs.topics for question in topic.questions)


@pytest.mark.parametrize(
    ("handler", "path"),
    [
        ("load_page", "/zwift-ruleset"),
        ("load_page", "/Bad..Slug"),
        ("load_article", "/article/no-such-article"),
        ("load_article", "/article/..%2Fsettings"),
    ],
)
async def test_an_unknown_slug_goes_to_the_home_page(root, handler, path):
    state, events = await _run(ContentState, handler, path)
    assert _redirects(events) == ["/"]
    assert (state.title, state.html, state.error) == ("", "", "")


async def test_a_refused_key_shows_the_not_loaded_message_and_the_chrome_falls_back(root, monkeypatch):
    _use_key(monkeypatch, "not-the-key")
    for handler, path in (
        ("load_page", "/about-us"),
        ("load_faqs", "/faqs"),
        ("load_contact", "/contact-us"),
    ):
        state, events = await _run(ContentState, handler, path)
        assert (state.loading, state.error, state.html, events) == (False, msg.NOT_LOADED, "", [])
    chrome, _ = await _run(ChromeState, "load", "/")
    assert chrome.menus_loaded is True
    assert (chrome.main_menu, chrome.navigation_menu, chrome.community_menu, chrome.social_links) == (
        [],
        [],
        [],
        [],
    )
    assert (chrome.site_name, chrome.logo) == (settings.site_name, "/logo.svg")


async def test_the_chrome_has_menus_with_dropdowns_and_splits_site_info_and_six_social_links(root):
    chrome, _ = await _run(ChromeState, "load", "/")
    community = next(group for group in chrome.main_menu if group.title == "Community")
    assert [child.split for child in community.children] == [False, False, False, True, False]
    assert [link.url for link in chrome.navigation_menu][0] == "/about-us"
    assert chrome.community_menu[-1].target == "_blank"
    assert [link.network for link in chrome.social_links] == [
        "facebook",
        "twitter",
        "linkedin",
        "instagram",
        "youtube",
        "strava",
    ]
    assert chrome.site_name == "RideArena" and chrome.in_app_view is False


async def test_the_chrome_follows_the_menus_once_the_content_service_answers_anew(root, monkeypatch):
    chrome, _ = await _run(ChromeState, "load", "/")
    assert chrome.navigation_menu[0].title == "About us"
    menus = root / "menus.yaml"
    menus.write_text(menus.read_text().replace("title: About us", "title: Who we are"))
    again, _ = await _run(ChromeState, "load", "/")
    assert again.navigation_menu[0].title == "About us"
    monkeypatch.setattr(content, "_cache", {})
    again, _ = await _run(ChromeState, "load", "/")
    assert again.navigation_menu[0].title == "Who we are"


async def test_d_equals_m_is_remembered_for_the_visit(root):
    chrome, _ = await _run(ChromeState, "load", "/support?d=m")
    assert chrome.in_app_view is True
    chrome.router = RouterData.from_router_data(
        {RouteVar.HEADERS: {"origin": "http://site"}, RouteVar.ORIGIN: "/faqs"}
    )
    await ChromeState.event_handlers["load"].fn(chrome)
    assert chrome.in_app_view is True


async def test_a_script_or_a_frame_in_the_content_never_reaches_the_page(root):
    (root / "pages" / "hostile.md").write_text(HOSTILE)
    state, _ = await _run(ContentState, "load_page", "/hostile")
    shown = state.html + state.ios_html
    for hostile in ("<script", "<iframe", "onerror", "alert("):
        assert hostile not in shown
    assert 'src="/content/first-ride.svg"' in shown and "Devices" in state.ios_html
