"""The content folder read as the content site's data: Markdown with YAML front matter for pages,
articles and FAQ topics, YAML for settings, menus and site info.

Each file is parsed and rendered once per modification (keyed by its mtime and size), so a warm read is
a stat and a dictionary lookup, and an edited file is picked up on the next request.
"""

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt

from cycling_site.wire.content import (
    MENU_ITEM_FIELDS,
    MENU_SLUGS,
    PAGE_EXTRA_FIELDS,
    PAGE_MARKDOWN_FIELDS,
    SITE_INFO_FIELDS,
    SLUG_PATTERN,
    SOCIAL_NETWORKS,
)

# CommonMark with tables; raw HTML passes through here, the site's client sanitises everything.
_markdown = MarkdownIt("commonmark").enable("table")
_slug = re.compile(SLUG_PATTERN)
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)(.*)\Z", re.DOTALL)
_QUESTION = re.compile(r"^## +(.+?) *$", re.MULTILINE)


class NotFound(LookupError):
    """No content with this slug."""


class Unreadable(ValueError):
    """A content file that is not valid YAML or front matter of the expected shape."""


@dataclass
class _Cached:
    stamp: tuple[int, int]
    value: Any


_cache: dict[tuple[Path, str], _Cached] = {}
_parsing = threading.Lock()


def _cached(path: Path, kind: str, build) -> Any:
    try:
        status = path.stat()
    except OSError as exc:
        raise NotFound(path.name) from exc
    stamp = (status.st_mtime_ns, status.st_size)
    hit = _cache.get((path, kind))
    if hit is not None and hit.stamp == stamp:
        return hit.value
    # One thread parses a file; the requests that came meanwhile (a burst when the site has just started)
    # wait for its result instead of each parsing it again.
    with _parsing:
        hit = _cache.get((path, kind))
        if hit is None or hit.stamp != stamp:
            try:
                hit = _Cached(stamp, build(path.read_text(encoding="utf-8")))
            except (OSError, yaml.YAMLError, TypeError, AttributeError, KeyError, ValueError) as exc:
                raise Unreadable(path.name) from exc
            _cache[(path, kind)] = hit
    return hit.value


def _front_matter(text: str) -> tuple[dict, str]:
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    meta = yaml.safe_load(match.group(1)) or {}
    if not isinstance(meta, dict):
        raise ValueError("front matter must be a mapping")
    return meta, match.group(2)


def _yaml_mapping(text: str) -> dict:
    data = yaml.safe_load(text) or {}
    if not isinstance(data, dict):
        raise ValueError("a mapping is expected")
    return data


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _checked_slug(slug: str) -> str:
    if not _slug.match(slug):
        raise NotFound(slug)
    return slug


def _render_page(text: str) -> dict:
    meta, body = _front_matter(text)
    page = {"title": _text(meta.get("title")), "banner": _text(meta.get("banner"))}
    page["content"] = _markdown.render(body)
    page |= {field: _text(meta.get(field)) for field in PAGE_EXTRA_FIELDS}
    for field, answer in PAGE_MARKDOWN_FIELDS.items():
        page[answer] = _markdown.render(_text(meta.get(field)))
    page["article_categories"] = bool(meta.get("article_categories"))
    return page


def _render_article(text: str) -> dict:
    meta, body = _front_matter(text)
    return {
        "id": int(meta["id"]),
        "title": _text(meta.get("title")),
        "image": _text(meta.get("image")),
        "category": _text(meta.get("category")),
        "order": int(meta.get("order", meta["id"])),
        "content": _markdown.render(body),
    }


def _render_faq_topic(text: str) -> dict:
    """A topic file: front matter (topic, topic_description, order), then one `## Question` heading per
    question with its answer below it."""
    meta, body = _front_matter(text)
    parts = _QUESTION.split(body)[1:]
    questions = [
        {"question": question, "answer": _markdown.render(answer.strip())}
        for question, answer in zip(parts[0::2], parts[1::2], strict=True)
    ]
    return {
        "topic": _text(meta.get("topic")),
        "topic_description": _text(meta.get("topic_description")),
        "order": int(meta.get("order", 0)),
        "questions": questions,
    }


class ContentFolder:
    """The content site's data, read from one folder."""

    def __init__(self, root: Path):
        self.root = root

    def _articles(self) -> dict[str, dict]:
        articles = {}
        for path in sorted((self.root / "articles").glob("*.md")):
            articles[path.stem] = _cached(path, "article", _render_article)
        return articles

    def _categories(self) -> list[dict]:
        listed = _cached(self.root / "article-categories.yaml", "yaml", _yaml_mapping)["categories"]
        names = {_text(item["slug"]): _text(item["name"]) for item in listed}
        articles = sorted(self._articles().items(), key=lambda pair: (pair[1]["order"], pair[0]))
        return [
            {
                "name": name,
                "slug": slug,
                "articles": [
                    {"id": a["id"], "slug": key, "title": a["title"], "image": a["image"], "name": name}
                    for key, a in articles
                    if a["category"] == slug
                ],
            }
            for slug, name in names.items()
        ]

    def page(self, slug: str) -> dict:
        rendered = _cached(self.root / "pages" / f"{_checked_slug(slug)}.md", "page", _render_page)
        page = {"slug": slug, **rendered}
        page["article_categories"] = self._categories() if rendered["article_categories"] else []
        return page

    def article(self, slug: str) -> dict:
        path = self.root / "articles" / f"{_checked_slug(slug)}.md"
        article = _cached(path, "article", _render_article)
        names = {category["slug"]: category["name"] for category in self._categories()}
        return {
            "id": article["id"],
            "slug": slug,
            "title": article["title"],
            "image": article["image"],
            "name": names.get(article["category"], ""),
            "content": article["content"],
        }

    def faqs(self) -> list[dict]:
        topics = [_cached(path, "faq", _render_faq_topic) for path in (self.root / "faqs").glob("*.md")]
        return [
            {key: value for key, value in topic.items() if key != "order"}
            for topic in sorted(topics, key=lambda topic: (topic["order"], topic["topic"]))
        ]

    def settings(self) -> dict:
        social = _cached(self.root / "settings.yaml", "yaml", _yaml_mapping).get("social", {})
        return {network: _text(social.get(network)) for network in SOCIAL_NETWORKS}

    def menus(self) -> list[dict]:
        menus = _cached(self.root / "menus.yaml", "yaml", _yaml_mapping)
        return [
            {
                "menu_slug": slug,
                "items": [
                    {
                        field: (
                            int(item.get(field) or 0)
                            if field in ("ID", "parent", "menu_order")
                            else _text(item.get(field))
                        )
                        for field in MENU_ITEM_FIELDS
                    }
                    for item in menus.get(slug) or []
                ],
            }
            for slug in MENU_SLUGS
        ]

    def site_info(self) -> dict:
        info = _cached(self.root / "site-info.yaml", "yaml", _yaml_mapping)
        return {field: _text(info.get(field)) for field in SITE_INFO_FIELDS}
