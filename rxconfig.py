"""Reflex configuration; every value comes from cycling_site.settings."""

from pathlib import Path

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin
from reflex_components_radix.plugin import RadixThemesPlugin

from cycling_site.settings import settings

config = rx.Config(
    app_name="cycling_site",
    db_url=settings.db_url,
    redis_url=settings.redis_url or None,
    frontend_port=settings.port,
    backend_port=settings.port,
    # CORS and the event socket's origin check: the site's own origins only, never "*" with cookies.
    cors_allowed_origins=settings.allowed_origins,
    telemetry_enabled=False,
    bun_path=Path(__file__).resolve().parent / ".tools/node_modules/bun/bin/bun.exe",
    show_built_with_reflex=False,
    plugins=[RadixThemesPlugin(theme=rx.theme(accent_color="orange", gray_color="slate", radius="medium"))],
    disable_plugins=[SitemapPlugin],
)
