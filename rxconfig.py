"""Reflex configuration; every value comes from cycling_site.settings."""

import os
from pathlib import Path

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from cycling_site.bundling import ChunkGroupsPlugin, PrerenderEventPagePlugin, SiteColorsThemePlugin
from cycling_site.color_scheme import LightSchemePlugin
from cycling_site.settings import settings

# The slowest handler that holds a rider's state lock waits on an outside service: an activity-service
# call (its client gives up after 30 s) or a card payment at the provider (20 s). A lock must outlive it
# and the lease below, or a second event of the same tab takes the state mid-handler; anything held past
# 2 s is logged.
SLOWEST_HANDLER_MS = 35_000
STATE_LOCK_MS = SLOWEST_HANDLER_MS + settings.state_lease_ms
STATE_LOCK_WARNING_MS = 2_000


def state_lease_environment(redis_url: str, lease_ms: int) -> dict[str, str]:
    """Reflex's opportunistic lock, for several workers: the worker that took a tab's state keeps it and
    its lock for `lease_ms`, so a page's chain of on-load events and the tab's next clicks use the copy in
    memory instead of a Redis lock, read and write each; a worker that needs the state sooner (an upload
    sent over HTTP) asks, and the lease ends at once. 300 riders held on 2 workers, each opening the
    dashboard again every ~10 s: 18 ms of CPU per load and p95 50 ms with a 30 s lease, 20-27 ms and p95
    62-112 ms with none (scripts/bench/load.py)."""
    if not redis_url or lease_ms <= 0:
        return {}
    return {"REFLEX_OPLOCK_ENABLED": "true", "REFLEX_OPLOCK_HOLD_TIME_MS": str(lease_ms)}


for name, value in state_lease_environment(settings.redis_url, settings.state_lease_ms).items():
    os.environ.setdefault(name, value)

config = rx.Config(
    app_name="cycling_site",
    db_url=settings.db_url,
    redis_url=settings.redis_url or None,
    # One worker keeps state in memory: Reflex's default in production is a disk store whose expiry sweep
    # reads every stored session on each write, so it slows down as sessions pile up. Several workers share
    # state through Redis (REDIS_URL).
    state_manager_mode="redis" if settings.redis_url else "memory",
    redis_lock_expiration=STATE_LOCK_MS,
    redis_lock_warning_threshold=STATE_LOCK_WARNING_MS,
    frontend_port=settings.port,
    backend_port=settings.port,
    # CORS and the event socket's origin check: the site's own origins only, never "*" with cookies.
    cors_allowed_origins=settings.allowed_origins,
    telemetry_enabled=False,
    bun_path=Path(__file__).resolve().parent / ".tools/node_modules/bun/bin/bun.exe",
    show_built_with_reflex=False,
    # Browsers that take Brotli get the built files about a fifth smaller than gzip: it counts on a phone.
    frontend_compression_formats=["brotli", "gzip"],
    # Radix Themes stays out of the libraries every page imports whole for dynamic components (the site has
    # none); bundling.drop_radix_loader drops its lazy loader too.
    frontend_lazy_bundled_libraries=True,
    plugins=[
        SiteColorsThemePlugin(
            theme=rx.theme(appearance="light", accent_color="orange", gray_color="slate", radius="medium")
        ),
        LightSchemePlugin(),
        ChunkGroupsPlugin(),
        PrerenderEventPagePlugin(),
    ],
    disable_plugins=[SitemapPlugin],
)
