"""Content pages and the site's chrome from the content service: the menus, site name, logo and social
links every page shows, and the pages, articles and FAQs (spec 2 sections 2 and 7).

Nothing here acts for a rider: the content is public. A content service that fails leaves the chrome with
no menu items (logo and Login stay) and shows a page's error; an unknown slug goes to the site's
not-found handling (/)."""

import dataclasses
import re

import reflex as rx

from cycling_site.clients import content
from cycling_site.messages import content as msg
from cycling_site.settings import settings
from cycling_site.state.changes import put
from cycling_site.wire.content import SLUG_PATTERN

# Query d=m (the game's in-app browser): no footer for the rest of the visit, no Android block on /support.
IN_APP_QUERY = ("d", "m")
DEFAULT_LOGO = "/logo.svg"
SLUG = re.compile(SLUG_PATTERN)


@dataclasses.dataclass
class MenuLink:
    id: str
    title: str
    url: str
    target: str
    attr_title: str
    split: bool


@dataclasses.dataclass
class MenuGroup:
    """A top-level item; with children it opens a dropdown."""

    id: str
    title: str
    url: str
    target: str
    attr_title: str
    children: list[MenuLink]


@dataclasses.dataclass
class SocialLink:
    network: str
    label: str
    url: str


@dataclasses.dataclass
class Card:
    slug: str
    title: str
    image: str
    name: str


@dataclasses.dataclass
class Category:
    name: str
    slug: str
    articles: list[Card]


@dataclasses.dataclass
class Question:
    id: str
    question: str
    answer_html: str


@dataclasses.dataclass
class Topic:
    topic: str
    topic_description: str
    questions: list[Question]


SOCIAL_LABELS = {
    "facebook": "Facebook",
    "twitter": "X (Twitter)",
    "linkedin": "LinkedIn",
    "instagram": "Instagram",
    "youtube": "YouTube",
    "strava": "Strava",
}


def _link(item: content.MenuItem) -> MenuLink:
    return MenuLink(
        id=str(item.id),
        title=item.title,
        url=item.url,
        target=item.target,
        attr_title=item.attr_title,
        split="split" in item.classes.split(),
    )


def _group(item: content.MenuItem) -> MenuGroup:
    return MenuGroup(
        id=str(item.id),
        title=item.title,
        url=item.url,
        target=item.target,
        attr_title=item.attr_title,
        children=[_link(child) for child in item.children],
    )


_shown_menus: tuple[object, dict[str, list]] = (None, {})


def _menu_vars(menus: dict[str, tuple[content.MenuItem, ...]]) -> dict[str, list]:
    """The menus as the chrome's vars, made once per answer of the content service (kept for minutes), not
    on every page load; the same lists then compare equal at once."""
    global _shown_menus
    if _shown_menus[0] is not menus:
        _shown_menus = (
            menus,
            {
                "main_menu": [_group(item) for item in menus.get("main-menu", ())],
                "navigation_menu": [_link(item) for item in menus.get("navigation-menu", ())],
                "community_menu": [_link(item) for item in menus.get("community-menu", ())],
            },
        )
    return _shown_menus[1]


class ChromeState(rx.State):
    """Menus, site info and social links, loaded on every page (the client caches menus and site info)."""

    main_menu: list[MenuGroup] = []
    navigation_menu: list[MenuLink] = []
    community_menu: list[MenuLink] = []
    social_links: list[SocialLink] = []
    site_name: str = settings.site_name
    logo: str = DEFAULT_LOGO
    menus_loaded: bool = False
    in_app: str = rx.SessionStorage("", name="in_app")

    @rx.var
    def in_app_view(self) -> bool:
        return self.in_app == IN_APP_QUERY[1]

    @rx.event
    async def load(self) -> None:
        if self.router.url.query_parameters.get(IN_APP_QUERY[0]) == IN_APP_QUERY[1]:
            put(self, in_app=IN_APP_QUERY[1])
        try:
            menus = await content.menus()
        except content.ContentError:
            menus = {}
        put(self, **_menu_vars(menus), menus_loaded=True)
        try:
            info = await content.site_info()
        except content.ContentError:
            info = content.SiteInfo(settings.site_name, "/", DEFAULT_LOGO, DEFAULT_LOGO)
        put(self, site_name=info.name or settings.site_name, logo=info.site_logo or DEFAULT_LOGO)
        if self.social_links:
            return
        try:
            social = await content.social_links()
        except content.ContentError:
            return
        self.social_links = [
            SocialLink(network=name, label=label, url=getattr(social, name))
            for name, label in SOCIAL_LABELS.items()
            if getattr(social, name)
        ]


def _card(card: content.ArticleCard) -> Card:
    return Card(slug=card.slug, title=card.title, image=card.image, name=card.name)


class ContentState(rx.State):
    """The page on screen: a content page (by its path), an article, the FAQs or the contact page's text."""

    loading: bool = True
    error: str = ""
    title: str = ""
    banner: str = ""
    html: str = ""
    image: str = ""
    contact_section_heading: str = ""
    ios_heading: str = ""
    ios_html: str = ""
    android_heading: str = ""
    android_html: str = ""
    app_store_url: str = ""
    google_play_url: str = ""
    categories: list[Category] = []
    topics: list[Topic] = []

    @rx.var
    def first_category(self) -> str:
        return self.categories[0].slug if self.categories else ""

    def _start(self) -> None:
        self.loading = True
        self.error = ""
        self.title = self.banner = self.html = self.image = ""
        self.categories = []
        self.topics = []

    def _show_page(self, found: content.Page) -> None:
        self.title = found.title
        self.banner = found.banner
        self.html = found.html
        self.contact_section_heading = found.contact_section_heading
        self.ios_heading = found.ios_heading
        self.ios_html = found.ios_html
        self.android_heading = found.android_heading
        self.android_html = found.android_html
        self.app_store_url = found.app_store_url
        self.google_play_url = found.google_play_url
        self.categories = [
            Category(name=c.name, slug=c.slug, articles=[_card(a) for a in c.articles])
            for c in found.article_categories
        ]

    @rx.event
    async def load_page(self):
        """The page whose slug is the path (/about-us, /ridearena-ruleset)."""
        self._start()
        yield
        slug = self.router.url.path.strip("/")
        try:
            if not SLUG.match(slug):
                raise content.ContentNotFound(msg.NOT_FOUND, 404)
            self._show_page(await content.page(slug))
        except content.ContentNotFound:
            yield rx.redirect("/", replace=True)
            return
        except content.ContentError as exc:
            self.error = exc.message
        self.loading = False

    @rx.event
    async def load_contact(self):
        """The contact page's banner and text; the form works without them."""
        self._start()
        yield
        try:
            self._show_page(await content.contact_page())
        except content.ContentError as exc:
            self.error = exc.message
        self.loading = False

    @rx.event
    async def load_article(self):
        self._start()
        yield
        slug = self.router.url.path.rstrip("/").rsplit("/", 1)[-1]
        try:
            if not SLUG.match(slug):
                raise content.ContentNotFound(msg.NOT_FOUND, 404)
            found = await content.article(slug)
        except content.ContentNotFound:
            yield rx.redirect("/", replace=True)
            return
        except content.ContentError as exc:
            self.error = exc.message
        else:
            self.title = found.title
            self.image = found.image
            self.html = found.html
        self.loading = False

    @rx.event
    async def load_faqs(self):
        self._start()
        yield
        try:
            found = await content.faqs()
        except content.ContentError as exc:
            self.error = exc.message
        else:
            self.topics = [
                Topic(
                    topic=topic.topic,
                    topic_description=topic.topic_description,
                    questions=[
                        Question(id=f"{t}-{q}", question=item.question, answer_html=item.answer_html)
                        for q, item in enumerate(topic.questions)
                    ],
                )
                for t, topic in enumerate(found)
            ]
        self.loading = False
