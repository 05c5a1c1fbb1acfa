"""The first screen the server puts in a public page's HTML: the page's real content, escaped, and an event's
page with its own title and description."""

from datetime import timedelta

import pytest

from cycling_site.api import first_screen
from cycling_site.bundling import EVENT_TEMPLATE_PATH, PRERENDER_ALL, prerender_event_page
from cycling_site.clients import content
from cycling_site.models.common import utcnow
from cycling_site.models.events import Event, Track
from cycling_site.services import teams
from cycling_site.settings import settings
from cycling_site.ui.content import PROSE_STYLE
from cycling_site.ui.first_screen import STYLE, TRACK_IMAGE_RATIO

BUILT = (
    '<html><head><title>Event · Site</title><meta content="A race." name="description"/>'
    '<link rel="modulepreload" href="/assets/esm-De5CBTAF.js"/></head>'
    '<body><main><style>x</style><div id="first-screen" class="rx-Html"></div><div>Loading...</div></main>'
    '<script type="module" async="">import "/assets/manifest-7eb48a3c.js";\n'
    'import("/assets/entry.client-BYLR9U9S.js");</script></body></html>'
)


def _event(session, **fields) -> Event:
    values = {
        "name": "Hill Race",
        "starts_at": utcnow() + timedelta(days=5),
        "closes_at": utcnow() + timedelta(days=4),
        "prize_money": 500_000,
        "details": "<p>Three laps.</p><script>alert(1)</script>",
        **fields,
    }
    event = Event(**values)
    session.add(event)
    session.commit()
    session.refresh(event)
    return event


def test_the_event_list_shows_each_event_with_its_name_escaped(session):
    _event(session, name="Jebel Jais <Classic> & Co")
    _event(
        session,
        name="Past Crit",
        starts_at=utcnow() - timedelta(days=3),
        closes_at=utcnow() - timedelta(days=4),
    )
    shown = first_screen.event_list(session).html
    assert "Jebel Jais &lt;Classic&gt; &amp; Co" in shown
    assert "<Classic>" not in shown
    assert "<h2>Past events</h2>" in shown and "Past Crit" in shown
    assert "AED 5,000.00" in shown


def test_an_events_page_has_its_own_title_and_description(session):
    event = _event(session, name='Night "Sprint"')
    screen = first_screen.event_page(session, str(event.id))
    assert screen.title == f'Night "Sprint" · {settings.site_name}'
    assert screen.description.startswith('Night "Sprint", ')
    assert "<h1>Night &quot;Sprint&quot;</h1>" in screen.html
    assert "<p>Three laps.</p>" in screen.html and "<script>" not in screen.html


def test_an_unknown_event_has_no_first_screen(session):
    assert first_screen.event_page(session, "999999") is None


def test_teams_and_tracks_show_their_names(session, make_account):
    owner = make_account()
    team = teams.create(session, owner, teams.TeamForm("Desert Foxes", "Fast & friendly", "AE", True))
    session.add(Track(title="Jebel Hafeet <climb>", description="11.7 km", image="/tracks/hafeet.svg"))
    session.commit()
    shown = first_screen.team_list(session).html
    assert (
        f"<h3>{team.name}</h3>" in shown
        and "Fast &amp; friendly" in shown
        and "United Arab Emirates" in shown
    )
    shown = first_screen.track_list(session).html
    assert "<h2>Jebel Hafeet &lt;climb&gt;</h2>" in shown and 'src="/tracks/hafeet.svg"' in shown


def test_the_snapshot_goes_in_the_slot_with_the_title_and_description_escaped():
    screen = first_screen.FirstScreen("<h1>Hill Race</h1>", 'A "race" · Site', "Hill <Race>, soon.")
    page = first_screen.with_first_screen(BUILT, screen)
    assert (
        '<div id="first-screen" class="rx-Html"><div class="first-screen"><h1>Hill Race</h1></div></div>'
        in page
    )
    assert "<title>A &quot;race&quot; · Site</title>" in page
    assert '<meta content="Hill &lt;Race&gt;, soon." name="description" data-first-screen=""/>' in page


def test_a_page_without_its_own_title_keeps_the_built_one():
    page = first_screen.with_first_screen(BUILT, first_screen.FirstScreen("<p>FAQ</p>"))
    assert "<title>Event · Site</title>" in page and 'content="A race."' in page


@pytest.mark.parametrize(
    ("path", "template", "key"),
    [
        ("/", "/", "events"),
        ("/events/", "/events", "events"),
        ("/event/detail/12", EVENT_TEMPLATE_PATH, "event:12"),
        ("/support/", "/support", "page:support"),
        ("/about-us", "/about-us", "page:about-us"),
        ("/faqs/", "/faqs", "faqs"),
        ("/teams/", "/teams", "teams"),
        ("/routes/", "/routes", "tracks"),
    ],
)
def test_each_public_page_is_served_with_its_snapshot(path, template, key):
    served = first_screen.served(path)
    assert (served.template, served.key) == (template, key)


@pytest.mark.parametrize(
    "path", ["/user/activities/", "/wallet/", "/event/detail/x", "/auth/login/", "/my-teams/"]
)
def test_other_pages_are_served_as_built(path):
    assert first_screen.served(path) is None


def test_the_build_prerenders_the_event_page_template():
    config = f'export default {{"ssr": false, {PRERENDER_ALL}, "build": "build"}};'
    assert f'[...getStaticPaths(), "{EVENT_TEMPLATE_PATH}"]' in prerender_event_page(config)
    development = 'export default {"ssr": false};'
    assert prerender_event_page(development) == development


def test_a_page_leaves_its_scripts_to_its_imports_so_the_stylesheet_comes_first():
    badge = '<span class="fs-avatar">L</span>'
    for page in (
        first_screen.with_first_screen(BUILT, first_screen.FirstScreen("<p>FAQ</p>")),
        first_screen.with_first_screen(BUILT, None),
        first_screen.with_first_screen(BUILT, None, badge),
    ):
        assert "modulepreload" not in page


def test_scripts_take_a_page_over_after_its_first_paint_or_at_once_in_a_background_tab():
    for page in (
        first_screen.with_first_screen(BUILT, first_screen.FirstScreen("<p>FAQ</p>")),
        first_screen.with_first_screen(BUILT, None, '<span class="fs-avatar">L</span>'),
    ):
        assert 'import("/assets/entry.client-BYLR9U9S.js");</script>' not in page
        assert (
            'const takeOver = () => import("/assets/entry.client-BYLR9U9S.js");'
            " document.hidden ? takeOver() : requestAnimationFrame(() => setTimeout(takeOver));</script>"
        ) in page


def test_the_pictures_and_text_of_the_largest_paint_are_marked_for_the_live_pages_sizes(session):
    event = _event(session, image="/events/hill.svg")
    assert (
        'src="/events/hill.svg" alt="" class="fs-event-image"'
        in first_screen.event_page(session, str(event.id)).html
    )
    session.add(Track(title="Hatta", description="Dam loop", image="/tracks/hatta.svg"))
    session.commit()
    shown = first_screen.track_list(session).html
    assert '<section class="fs-card fs-track"><img src="/tracks/hatta.svg" alt="Hatta"' in shown


def test_the_first_screen_draws_them_at_the_live_pages_sizes():
    # As pages/event_detail.py, pages/tracks.py and ui/content.py draw them on a phone.
    assert ".first-screen .fs-event-image{max-width:100%;height:200px;aspect-ratio:auto}" in STYLE
    assert f".first-screen .fs-track img{{max-width:100%;aspect-ratio:{TRACK_IMAGE_RATIO};" in STYLE
    assert f".first-screen .fs-prose{{font-size:16px;line-height:{PROSE_STYLE['line_height']}}}" in STYLE
    underline = PROSE_STYLE["& a"]["text_underline_offset"]
    assert (
        f".first-screen .fs-prose a{{text-decoration:underline;text-underline-offset:{underline}}}" in STYLE
    )


@pytest.mark.anyio
async def test_a_content_pages_text_is_set_as_the_live_pages_prose(monkeypatch):
    async def page(slug: str) -> content.Page:
        return content.Page(slug=slug, title="Support", banner="/content/b.svg", html="<p>Ride.</p>")

    monkeypatch.setattr(content, "page", page)
    screen = await first_screen.content_page("support")
    assert '<div class="fs-prose"><p>Ride.</p></div>' in screen.html
    # The banner holds its own place (1800 x 600) until it is in: the page below it does not move.
    assert '<img src="/content/b.svg" alt="" class="fs-banner" width="1800" height="600"' in screen.html
