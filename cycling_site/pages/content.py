"""Content pages from the content service (spec 2 section 2): support, the banner-and-HTML pages (terms,
privacy, about, Team UAE, Sunday Race Club, AlUla, the rulesets), articles and the FAQs."""

import reflex as rx

from components.carousel import carousel
from cycling_site.messages import content as msg
from cycling_site.routes import path_of
from cycling_site.state.content import Card, Category, ChromeState, ContentState, Question, Topic
from cycling_site.ui.content import banner, loaded, page_title, prose
from cycling_site.ui.feedback import primary_link
from cycling_site.ui.layout import card, page
from cycling_site.ui.links import link_button
from cycling_site.ui.theme import COLOR, DISPLAY_HEADING, RADIUS, SHADOW, SIZE, SPACE


def _section_heading(text: str | rx.Var, **props) -> rx.Component:
    return rx.heading(text, as_="h2", font_size=[SIZE["lg"], "24px"], **DISPLAY_HEADING, **props)


def content_page() -> rx.Component:
    """Banner, title and HTML: terms, privacy, about us, Team UAE, Sunday Race Club, AlUla, rulesets."""
    return page(
        loaded(
            rx.vstack(
                banner(ContentState.banner, id="content-banner"),
                card(page_title(ContentState.title), prose(ContentState.html, id="content-body")),
                spacing="5",
                width="100%",
            )
        ),
        width="960px",
    )


def _article_card(article: Card) -> rx.Component:
    return rx.link(
        rx.vstack(
            rx.image(
                src=article.image,
                alt="",
                width="100%",
                aspect_ratio="16 / 9",
                object_fit="cover",
                background=COLOR["ink"],
            ),
            rx.vstack(
                rx.text(
                    article.name,
                    color=COLOR["accent_dark"],
                    font_size=SIZE["xs"],
                    font_weight="700",
                    text_transform="uppercase",
                    letter_spacing="0.06em",
                ),
                rx.text(article.title, font_weight="700", font_size=SIZE["md"], color=COLOR["text"]),
                rx.hstack(
                    rx.text("Read article", font_size=SIZE["sm"], font_weight="600"),
                    rx.icon("arrow-right", size=16),
                    color=COLOR["accent_dark"],
                    spacing="1",
                    align="center",
                    margin_top="auto",
                ),
                spacing="2",
                padding=SPACE["4"],
                flex="1",
                width="100%",
            ),
            spacing="0",
            height="100%",
            background=COLOR["card"],
            border=f"1px solid {COLOR['border']}",
            border_radius=RADIUS["lg"],
            overflow="hidden",
            transition="box-shadow .2s, transform .2s",
            _hover={"box_shadow": SHADOW["card"], "transform": "translateY(-2px)"},
        ),
        href="/article/" + article.slug,
        underline="none",
        display="block",
        height="100%",
        class_name="article-card",
    )


def _category_panel(category: Category) -> rx.Component:
    return rx.tabs.content(
        rx.cond(
            category.articles.length() > 0,
            carousel(rx.foreach(category.articles, _article_card), label=category.name, id="articles"),
            rx.text(msg.NO_ARTICLES, color=COLOR["muted"], id="no-articles", padding_y=SPACE["4"]),
        ),
        value=category.slug,
        padding_top=SPACE["5"],
    )


def _articles() -> rx.Component:
    return rx.cond(
        ContentState.categories.length() > 0,
        card(
            _section_heading("Help articles", margin_bottom=SPACE["3"]),
            rx.tabs.root(
                rx.tabs.list(
                    rx.foreach(
                        ContentState.categories,
                        lambda category: rx.tabs.trigger(category.name, value=category.slug),
                    ),
                    flex_wrap="wrap",
                ),
                rx.foreach(ContentState.categories, _category_panel),
                default_value=ContentState.first_category,
                id="article-tabs",
            ),
        ),
    )


def _device(icon: str, heading: rx.Var, html: rx.Var, store: str, url: rx.Var, block_id: str) -> rx.Component:
    return card(
        rx.vstack(
            rx.hstack(
                rx.center(
                    rx.icon(icon, size=22, color=COLOR["accent_dark"]),
                    background=COLOR["accent_soft"],
                    border_radius=RADIUS["md"],
                    width="44px",
                    height="44px",
                    flex_shrink="0",
                ),
                rx.heading(heading, as_="h3", size="4"),
                spacing="3",
                align="center",
            ),
            prose(html),
            rx.cond(
                url != "",
                link_button(
                    rx.icon("download", size=16),
                    store,
                    href=url,
                    is_external=True,
                    size="3",
                    background=COLOR["ink"],
                    color="white",
                    cursor="pointer",
                    _hover={"background": COLOR["ink_soft"]},
                    margin_top="auto",
                ),
            ),
            spacing="4",
            height="100%",
        ),
        id=block_id,
    )


def _devices() -> rx.Component:
    return rx.vstack(
        _section_heading("Recommended devices"),
        rx.grid(
            _device(
                "tablet-smartphone",
                ContentState.ios_heading,
                ContentState.ios_html,
                "Download on the App Store",
                ContentState.app_store_url,
                "ios-devices",
            ),
            rx.cond(
                ~ChromeState.in_app_view,
                _device(
                    "smartphone",
                    ContentState.android_heading,
                    ContentState.android_html,
                    "Get it on Google Play",
                    ContentState.google_play_url,
                    "android-devices",
                ),
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="5",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def _contact() -> rx.Component:
    return rx.box(
        rx.flex(
            rx.hstack(
                rx.icon("life-buoy", size=28, color=COLOR["accent"], flex_shrink="0"),
                rx.text(ContentState.contact_section_heading, font_weight="600", font_size=SIZE["md"]),
                spacing="3",
                align="center",
            ),
            primary_link("Contact us", path_of("contacts"), id="support-contact"),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="center"),
            gap=SPACE["4"],
        ),
        background=COLOR["accent_soft"],
        border=f"1px solid {COLOR['accent']}33",
        border_radius=RADIUS["lg"],
        padding=[SPACE["5"], SPACE["6"]],
        width="100%",
        id="support-contact-section",
    )


def support_page() -> rx.Component:
    return page(
        loaded(
            rx.vstack(
                banner(ContentState.banner, id="content-banner"),
                card(page_title(ContentState.title), prose(ContentState.html, id="content-body")),
                _devices(),
                _articles(),
                _contact(),
                spacing="6",
                width="100%",
            )
        )
    )


def article_page() -> rx.Component:
    return page(
        loaded(
            rx.vstack(
                rx.link(
                    rx.hstack(
                        rx.icon("arrow-left", size=16), rx.text("Support"), spacing="1", align="center"
                    ),
                    href=path_of("support"),
                    color=COLOR["accent_dark"],
                    font_weight="600",
                    font_size=SIZE["sm"],
                    underline="none",
                    id="article-back",
                ),
                card(
                    page_title(ContentState.title),
                    rx.cond(
                        ContentState.image != "",
                        rx.image(
                            src=ContentState.image,
                            alt="",
                            width="100%",
                            aspect_ratio="16 / 9",
                            object_fit="cover",
                            border_radius=RADIUS["md"],
                            margin_bottom=SPACE["5"],
                            id="article-image",
                        ),
                    ),
                    prose(ContentState.html, id="content-body"),
                ),
                spacing="4",
                width="100%",
            ),
            with_banner=False,
        ),
        width="860px",
    )


def _question(item: Question) -> rx.Component:
    return rx.accordion.item(
        header=item.question,
        content=prose(item.answer_html, padding_bottom=SPACE["3"]),
        value=item.id,
        class_name="faq-item",
    )


def _topic(topic: Topic) -> rx.Component:
    return card(
        _section_heading(topic.topic),
        rx.text(
            topic.topic_description, color=COLOR["muted"], margin_top=SPACE["1"], margin_bottom=SPACE["3"]
        ),
        rx.accordion.root(
            rx.foreach(topic.questions, _question),
            type="multiple",
            collapsible=True,
            variant="ghost",
            width="100%",
            color_scheme="gray",
        ),
        class_name="faq-topic",
    )


def faqs_page() -> rx.Component:
    return page(
        page_title("Frequently asked questions"),
        rx.text(
            "Answers to what riders ask us most. Can't find yours? ",
            rx.link("Contact us", href=path_of("contacts"), color=COLOR["accent_dark"], font_weight="600"),
            ".",
            color=COLOR["muted"],
            margin_top=f"-{SPACE['2']}",
            margin_bottom=SPACE["5"],
        ),
        loaded(
            rx.vstack(rx.foreach(ContentState.topics, _topic), spacing="5", width="100%", id="faqs"),
            with_banner=False,
        ),
        width="960px",
    )
