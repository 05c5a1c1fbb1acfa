"""Teams (spec 2 section 2): the public card grid with its pagination, the sign-in prompts for visitors, and a
rider creating, joining and leaving teams with every error message, My Teams' tabs, the dashboard's team
following a join; on a desktop and a phone."""

import uuid

from playwright.sync_api import Page, expect
from sqlmodel import col, select, update

from cycling_site.messages import site as site_msg
from cycling_site.messages import teams as msg
from cycling_site.models import Team, TeamMembership
from cycling_site.models.teams import NAME_MAX
from tests.e2e.helpers import (
    RIDER,
    at,
    new_account,
    returning_rider,
    wait_dashboard,
    wait_live,
    wait_signed_in,
)

# The demo's public teams by name: ten on page 1, the rest on page 2 (teams made here sort after them).
FIRST_PAGE_FIRST = "Abu Dhabi Aero Club"
FIRST_PAGE_LAST = "Muscat Mountain Wheels"
SECOND_PAGE = ("Ras Al Khaimah Summit", "Riyadh Watts Collective", "Sharjah Night Riders")
NO_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth"


def _rider(db) -> str:
    email = f"teams-{uuid.uuid4().hex[:10]}@example.com"
    new_account(db, email, firstname="Teddy", lastname="Climber")
    return email


def _cards(page: Page):
    return page.locator(".team-card")


def _card(page: Page, name: str):
    return _cards(page).filter(has=page.locator(".team-name", has_text=name))


def _members(db, name: str) -> int:
    db.expire_all()
    team = db.exec(select(Team).where(Team.name == name)).one()
    return len(db.exec(select(TeamMembership).where(TeamMembership.team_id == team.id)).all())


def test_visitors_page_through_the_public_teams(page: Page):
    page.goto("/teams")
    expect(page.locator("main h1")).to_have_text(msg.TITLE)
    cards = _cards(page)
    expect(cards).to_have_count(10)
    expect(cards.first.locator(".team-name")).to_have_text(FIRST_PAGE_FIRST)
    expect(cards.last.locator(".team-name")).to_have_text(FIRST_PAGE_LAST)
    falcons = _card(page, "Desert Falcons")
    expect(falcons.locator(".team-member-count")).to_have_text("8")
    expect(falcons).to_contain_text(msg.MEMBERS)
    expect(falcons.locator(".team-flag img")).to_have_attribute("alt", "Flag of United Arab Emirates")
    expect(_card(page, "Gulf Nomads").locator(".team-flag-placeholder")).to_be_visible()
    # The private team is never listed.
    expect(_card(page, "Falcon Academy Juniors")).to_have_count(0)

    pagination = page.locator("#teams-pagination")
    expect(pagination.locator(".page-current")).to_have_text("1")
    expect(page.locator("#page-prev")).to_be_disabled()
    page.click("#page-next")
    expect(pagination.locator(".page-current")).to_have_text("2")
    for name in SECOND_PAGE:
        expect(_card(page, name)).to_have_count(1)
    expect(_card(page, FIRST_PAGE_FIRST)).to_have_count(0)
    expect(page.locator("#page-next")).to_be_disabled()
    page.click("#page-prev")
    expect(cards.first.locator(".team-name")).to_have_text(FIRST_PAGE_FIRST)
    pagination.get_by_role("button", name="Page 2").click()
    expect(pagination.locator(".page-current")).to_have_text("2")

    # A visitor's Join leads to sign in, and back here afterwards.
    page.locator(".team-sign-in").first.click()
    expect(page).to_have_url(at("/auth/login", "redirect=%2Fteams&reason=session_expired"))


def test_no_public_team_shows_the_empty_message(page: Page, db):
    public = db.exec(select(Team.id).where(col(Team.public).is_(True))).all()
    db.exec(update(Team).where(col(Team.id).in_(public)).values(public=False))
    db.commit()
    try:
        page.goto("/teams")
        expect(page.locator("#teams-empty")).to_have_text(msg.EMPTY)
        expect(page.locator("#teams-pagination")).to_have_count(0)
    finally:
        db.exec(update(Team).where(col(Team.id).in_(public)).values(public=True))
        db.commit()


def test_visitors_are_asked_to_sign_in_on_my_teams(page: Page):
    page.goto("/my-teams")
    prompt = page.locator("#my-teams-sign-in")
    expect(prompt).to_contain_text(msg.SIGN_IN_TITLE)
    expect(page.locator("#create-team")).to_have_count(0)
    page.click("#teams-sign-in")
    expect(page).to_have_url(at("/auth/login", "redirect=%2Fmy-teams&reason=session_expired"))


def test_a_rider_joins_a_team_the_dashboard_follows_and_a_second_join_is_refused(page: Page, db):
    email = _rider(db)
    returning_rider(page, email)
    wait_signed_in(page)
    page.goto("/teams")
    card = _card(page, "Al Ain Oasis Riders")
    expect(card.locator(".team-member-count")).to_have_text("2")
    # A second tab, opened before the join, still offers Join.
    other = page.context.new_page()
    other.clock.install()
    other.goto("/teams")
    expect(_card(other, "Al Ain Oasis Riders").locator(".team-join")).to_be_visible()

    card.locator(".team-join").click()
    expect(page.get_by_text(msg.TEAM_JOINED.format(name="Al Ain Oasis Riders"))).to_be_visible()
    expect(card.locator(".team-member-count")).to_have_text("3")
    expect(card.locator(".team-joined")).to_have_text(msg.JOINED)
    expect(card.locator(".team-leave")).to_be_visible()

    # The refusal is the site's errors pop-up: one paragraph per error, the support line, gone after 10 s.
    _card(other, "Al Ain Oasis Riders").locator(".team-join").click()
    popup = other.get_by_role("dialog", name=site_msg.ERRORS_POPUP_TITLE)
    expect(popup.locator("#errors-popup-errors p")).to_have_text([msg.ALREADY_MEMBER])
    expect(popup).to_contain_text(site_msg.ERRORS_POPUP_SUPPORT.format(email="support@example.com"))
    expect(_card(other, "Al Ain Oasis Riders").locator(".team-leave")).to_be_visible()
    other.clock.fast_forward("00:09")
    expect(popup).to_be_visible()
    other.clock.fast_forward("00:02")
    expect(popup).to_have_count(0)
    assert _members(db, "Al Ain Oasis Riders") == 3
    other.close()

    page.goto("/user/activities")
    expect(page.locator("#rider-team")).to_have_text("Al Ain Oasis Riders")

    page.goto("/my-teams")
    expect(page.locator("#tab-joined")).to_have_attribute("aria-selected", "true")
    joined = _card(page, "Al Ain Oasis Riders")
    joined.locator(".team-leave").click()
    expect(page.get_by_text(msg.TEAM_LEFT.format(name="Al Ain Oasis Riders"))).to_be_visible()
    expect(page.locator("#teams-empty")).to_have_text(msg.NO_JOINED)
    assert _members(db, "Al Ain Oasis Riders") == 2
    page.goto("/user/activities")
    wait_dashboard(page)
    expect(page.locator("#rider-team")).to_have_count(0)


def test_creating_a_team_with_its_error_messages_then_closing_it(page: Page, db):
    email = _rider(db)
    returning_rider(page, email)
    wait_signed_in(page)
    page.goto("/my-teams")
    expect(page.locator("#teams-empty")).to_have_text(msg.NO_JOINED)
    page.click("#tab-owned")
    expect(page.locator("#teams-empty")).to_have_text(msg.NO_OWNED)

    page.click("#create-team")
    dialog = page.locator("#create-team-dialog")
    submit = dialog.locator("#create-team-submit button")
    expect(submit).to_be_enabled()
    submit.click()
    expect(dialog.locator("#name-error")).to_have_text(msg.NAME_REQUIRED)
    dialog.locator("#name").fill("Z" * (NAME_MAX + 1))
    submit.click()
    expect(dialog.locator("#name-error")).to_have_text(msg.NAME_TOO_LONG.format(max=NAME_MAX))
    dialog.locator("#name").fill("  desert   FALCONS ")
    submit.click()
    expect(dialog.locator("#name-error")).to_have_text(msg.NAME_TAKEN)
    assert db.exec(select(Team).where(Team.name_key == "desert falcons")).all().__len__() == 1

    name = f"Zayed Sprint {uuid.uuid4().hex[:6]}"
    dialog.locator("#name").fill(name)
    dialog.locator("#description").fill("Sprints on Yas Marina, every Tuesday.")
    dialog.locator("#country").select_option("AE")
    submit.click()
    expect(page.get_by_text(msg.TEAM_CREATED.format(name=name))).to_be_visible()
    expect(dialog).to_have_count(0)
    expect(page.locator("#tab-owned")).to_have_attribute("aria-selected", "true")
    card = _card(page, name)
    expect(card.locator(".team-owner")).to_have_text(msg.OWNER)
    expect(card.locator(".team-member-count")).to_have_text("1")
    expect(card.locator(".team-flag img")).to_be_visible()
    db.expire_all()
    stored = db.exec(select(Team).where(Team.name == name)).one()
    assert (stored.country, stored.description, stored.public) == (
        "AE",
        "Sprints on Yas Marina, every Tuesday.",
        True,
    )

    page.goto("/user/activities")
    expect(page.locator("#rider-team")).to_have_text(name)

    # The owner as its only member: leaving closes the team.
    page.goto("/my-teams")
    wait_live(page)
    page.click("#tab-owned")
    _card(page, name).locator(".team-leave").click()
    expect(page.get_by_text(msg.TEAM_CLOSED.format(name=name))).to_be_visible()
    expect(page.locator("#teams-empty")).to_have_text(msg.NO_OWNED)
    db.expire_all()
    assert db.exec(select(Team).where(Team.name == name)).first() is None


def test_an_owner_with_members_cannot_leave(page: Page, db):
    email = _rider(db)
    returning_rider(page, email)
    wait_signed_in(page)
    name = f"Zabeel Pacers {uuid.uuid4().hex[:6]}"
    page.goto("/teams")
    wait_live(page)
    page.click("#create-team")
    page.locator("#create-team-dialog #name").fill(name)
    page.locator("#create-team-dialog #create-team-submit button").click()
    expect(page.get_by_text(msg.TEAM_CREATED.format(name=name))).to_be_visible()
    db.expire_all()
    team = db.exec(select(Team).where(Team.name == name)).one()
    mate = new_account(db, f"mate-{uuid.uuid4().hex[:8]}@example.com")
    db.add(TeamMembership(team_id=team.id, account_id=mate.id))
    db.commit()
    page.goto("/my-teams")
    wait_live(page)
    page.click("#tab-owned")
    _card(page, name).locator(".team-leave").click()
    expect(page.get_by_text(msg.OWNER_CANNOT_LEAVE)).to_be_visible()
    expect(_card(page, name).locator(".team-member-count")).to_have_text("2")


def test_the_demo_riders_dashboard_shows_her_team(page: Page):
    returning_rider(page, RIDER)
    wait_signed_in(page)
    page.goto("/user/activities")
    expect(page.locator("#rider-team")).to_have_text("Desert Falcons")


def test_teams_on_a_phone(phone_page: Page, db):
    page = phone_page
    page.goto("/teams")
    cards = _cards(page)
    expect(cards).to_have_count(10)
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert second["y"] > first["y"] + first["height"] - 1, "one card a row on a phone"
    assert page.evaluate(NO_OVERFLOW)
    page.locator("#page-next").scroll_into_view_if_needed()
    page.locator("#page-next").tap()
    expect(page.locator("#teams-pagination .page-current")).to_have_text("2")

    email = _rider(db)
    returning_rider(page, email)
    wait_signed_in(page)
    page.goto("/teams")
    card = _card(page, "Doha Pulse Cycling")
    card.locator(".team-join").tap()
    expect(page.get_by_text(msg.TEAM_JOINED.format(name="Doha Pulse Cycling"))).to_be_visible()
    page.goto("/my-teams")
    expect(_card(page, "Doha Pulse Cycling").locator(".team-leave")).to_be_visible()
    page.locator("#tab-owned").tap()
    expect(page.locator("#teams-empty")).to_have_text(msg.NO_OWNED)
    page.locator("#create-team").tap()
    expect(page.locator("#create-team-dialog #name")).to_be_visible()
    assert page.evaluate(NO_OVERFLOW)
