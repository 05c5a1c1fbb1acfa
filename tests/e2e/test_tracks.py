"""The tracks page as a visitor sees it, on desktop and on a phone."""

from playwright.sync_api import Locator, Page, expect

from cycling_site.messages import tracks as msg
from cycling_site.services.tracks import list_tracks, seed_tracks


def _tracks(db) -> list:
    seed_tracks(db)  # the demo tracks, unless the site already has tracks
    return list_tracks(db)


def _image_shown(page: Page, card: Locator) -> None:
    image = card.get_by_role("img").element_handle()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image)


def test_a_visitor_sees_every_track_with_its_image(page: Page, db):
    tracks = _tracks(db)
    page.goto("/routes")
    expect(page.get_by_role("heading", name=msg.TITLE, exact=True)).to_be_visible()
    cards = page.locator(".track-card")
    expect(cards).to_have_count(len(tracks))
    expect(cards.locator("h2")).to_have_text([track.title for track in tracks])
    first = cards.first
    expect(first).to_contain_text(tracks[0].description)
    expect(first.get_by_role("img", name=tracks[0].title)).to_have_attribute("src", tracks[0].image)
    expect(page.locator("#tracks-loading")).to_have_count(0)
    for i in range(len(tracks)):
        _image_shown(page, cards.nth(i))
    # Three cards a row on a desktop.
    tops = [cards.nth(i).bounding_box()["y"] for i in range(3)]
    assert len(set(tops)) == 1, tops


def test_tracks_fit_a_phone_one_card_a_row(phone_page: Page, db):
    page = phone_page
    tracks = _tracks(db)
    page.goto("/routes")
    cards = page.locator(".track-card")
    expect(cards).to_have_count(len(tracks))
    _image_shown(page, cards.first)
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert second["y"] >= first["y"] + first["height"]
    assert first["width"] >= 320
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"/routes is {width}px wide on a 375px phone"
