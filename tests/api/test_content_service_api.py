"""The embedded content service's API as a remote content site would answer: the API key, unknown
slugs, unreadable files (never a 500) and the shapes of every call (spec 2 and 3 section 7)."""

import shutil
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cycling_site.embedded.content import service as content_service
from cycling_site.embedded.content import store, texts
from cycling_site.settings import PROJECT_ROOT, settings
from cycling_site.wire import content as wire

KEY = {wire.API_KEY_HEADER: settings.content_service_key}
BASE = wire.EMBEDDED_PREFIX + "/"


@pytest.fixture
def service(tmp_path) -> TestClient:
    folder = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", folder)
    app = FastAPI()
    content_service.install(app, folder)
    with TestClient(app, raise_server_exceptions=False) as client:
        client.folder = folder
        yield client


@pytest.mark.parametrize("headers", [{}, {wire.API_KEY_HEADER: "wrong"}, {wire.API_KEY_HEADER: ""}])
@pytest.mark.parametrize("path", ["pages/about-us", "pages/getFaqs", "setting", wire.MENUS, wire.SITE_INFO])
def test_every_call_needs_the_api_key(service, headers, path):
    answer = service.get(BASE + path, headers=headers)
    assert answer.status_code == 401
    assert answer.json() == {"status": False, "message": texts.UNAUTHORISED}


@pytest.mark.parametrize(
    "path", ["pages/no-such-page", "pages/article/no-such-article", "pages/Bad_Slug", "pages/article/..."]
)
def test_unknown_slugs_answer_404_in_json(service, path):
    answer = service.get(BASE + path, headers=KEY)
    assert answer.status_code == 404
    assert answer.json() == {"status": False, "message": texts.NOT_FOUND}


def test_an_unreadable_file_is_a_503_not_a_500(service):
    (service.folder / "pages" / "broken.md").write_text("---\ntitle: [unclosed\n---\nText\n")
    (service.folder / "menus.yaml").write_text("- just\n- a list\n")
    for path in ("pages/broken", wire.MENUS):
        answer = service.get(BASE + path, headers=KEY)
        assert (answer.status_code, answer.json()["message"]) == (503, texts.UNREADABLE)


def test_pages_articles_faqs_and_settings_shapes(service):
    page = service.get(BASE + "pages/support", headers=KEY).json()
    assert page["status"] is True
    data = page["data"]
    assert {
        "slug",
        "title",
        "banner",
        "content",
        "ios_content",
        "android_content",
        *wire.PAGE_EXTRA_FIELDS,
    } <= set(data)
    assert [category["slug"] for category in data["article_categories"]] == [
        "getting-started",
        "racing",
        "trainers-and-devices",
        "account-and-payments",
    ]
    assert set(data["article_categories"][0]["articles"][0]) == {"id", "slug", "title", "image", "name"}
    contact = service.post(BASE + "pages/contact-us", headers=KEY).json()["data"]
    assert (contact["slug"], contact["article_categories"]) == ("contact-us", [])
    article = service.get(BASE + "pages/article/pair-your-trainer", headers=KEY).json()["data"]
    assert set(article) == {"id", "slug", "title", "image", "name", "content"}
    assert article["name"] == "Trainers and Devices"
    faqs = service.get(BASE + "pages/getFaqs", headers=KEY).json()["data"]
    assert len(faqs) == 4 and set(faqs[0]) == {"topic", "topic_description", "questions"}
    assert set(faqs[0]["questions"][0]) == {"question", "answer"}
    social = service.get(BASE + "setting", headers=KEY).json()["data"]
    assert set(social) == set(wire.SOCIAL_NETWORKS)


def test_menus_and_site_info_shapes(service):
    menus = service.get(BASE + wire.MENUS, headers=KEY).json()["menus"]
    assert [menu["menu_slug"] for menu in menus] == list(wire.MENU_SLUGS)
    assert all(set(item) == set(wire.MENU_ITEM_FIELDS) for menu in menus for item in menu["items"])
    assert any(item["classes"] == "split" for item in menus[0]["items"])
    info = service.get(BASE + wire.SITE_INFO, headers=KEY).json()
    assert info == {
        "name": "RideArena",
        "home_url": "/",
        "site_logo": "/logo.svg",
        "site_logo_dark": "/logo.svg",
    }


def test_an_edited_page_is_served_fresh(service):
    path = service.folder / "pages" / "about-us.md"
    assert "RideArena is an" in service.get(BASE + "pages/about-us", headers=KEY).json()["data"]["content"]
    path.write_text("---\ntitle: About\n---\nA new story, a longer one.\n")
    assert "A new story" in service.get(BASE + "pages/about-us", headers=KEY).json()["data"]["content"]


def test_requests_that_come_while_a_file_is_parsed_wait_for_that_one_parse(service, monkeypatch):
    parsed = []
    parse = store.yaml.safe_load

    def counted(text):
        parsed.append(text)
        time.sleep(0.05)  # a parse long enough for the other requests to come meanwhile
        return parse(text)

    monkeypatch.setattr(store, "_cache", {})
    monkeypatch.setattr(store.yaml, "safe_load", counted)
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: service.get(BASE + wire.MENUS, headers=KEY).json(), range(8)))
    assert all(answer == answers[0] for answer in answers) and answers[0]["menus"]
    assert len(parsed) == 1
