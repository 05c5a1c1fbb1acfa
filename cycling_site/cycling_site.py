"""The Reflex app: pages, the REST API, the site-wide middleware, the e-mail delivery loop, and the
embedded outside services (the only module of the site that wires them in)."""

import gc
import logging
import uuid
from collections.abc import Callable
from contextlib import asynccontextmanager
from functools import partial

import reflex as rx
from fastapi import FastAPI
from reflex.config import get_config
from reflex.istate.manager.redis import StateManagerRedis
from reflex_base.constants import Endpoint
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp

import cycling_site.models  # noqa: F401  (registers the tables)
from cycling_site import live_connection
from cycling_site.api.built_files import serve_built_files_on_loop
from cycling_site.api.errors import install_error_handlers
from cycling_site.api.main import api
from cycling_site.api.middleware import SiteMiddleware
from cycling_site.clients import activity, content, oauth, payments, pooled
from cycling_site.db import bound_worker_threads
from cycling_site.embedded.activity import service as activity_service
from cycling_site.embedded.content import service as content_service
from cycling_site.embedded.oauth_provider import service as oauth_provider
from cycling_site.embedded.payments import service as payments_sandbox
from cycling_site.embedded.results import service as results_service
from cycling_site.pages import register_pages
from cycling_site.services import accounts
from cycling_site.services.mail_delivery import deliver_forever
from cycling_site.settings import payments_in_test_mode, settings
from cycling_site.ui import site_messages
from cycling_site.ui.theme import GLOBAL_STYLE, site_stylesheet

activity_service.install(api, accounts.rider_exists)
results_service.install(api)
content_service.install(api)
# The demo stand-ins are not served in production (settings refuse a production start that would need them).
if settings.demo:
    oauth_provider.install(api)
    payments_sandbox.install(api, webhooks_to=api)
elif payments_in_test_mode(settings):
    logging.getLogger(__name__).warning("Card payments are in the provider's test mode: no money is taken")


def _own_app(install: Callable[[FastAPI], None]) -> FastAPI:
    """An app of the service's own (same routes, same error answers), for the calls made in this process:
    matching each call against the whole site's route table cost more than most calls' own work."""
    app = FastAPI(openapi_url=None)
    install_error_handlers(app)
    install(app)
    return app


# The clients reach the embedded services in this process, over the same wire as a remote one. The activity
# service (several calls per dashboard) and the content service (the menus of every page) through apps of
# their own; the others through the site's.
activity.serve_embedded_from(_own_app(partial(activity_service.install, rider_exists=accounts.rider_exists)))
content.serve_embedded_from(_own_app(content_service.install))
if settings.demo:
    oauth.serve_embedded_from(api)
    payments.serve_embedded_from(api)


def _api_in_front(backend: ASGIApp) -> ASGIApp:
    """The REST API and the embedded services in front of Reflex's backend (the pages' live connections,
    uploads, the built frontend), mounted behind their routes as Reflex mounts an app given as a transformer;
    Reflex's outer CORS middleware covers both. The live connection and the built frontend's files are
    routed first: behind the API's forty routers, matching each new connection (every page load) cost half a
    millisecond more, and each file 0.6 ms. The built frontend is served without worker threads, so it never
    waits behind database work."""
    config = get_config()
    serve_built_files_on_loop(backend.routes)
    api.router.routes[:0] = [
        WebSocketRoute(config.prepend_backend_path(str(Endpoint.EVENT)) + "{rest:path}", backend),
        Route(config.prepend_frontend_path("/assets/") + "{rest:path}", backend),
    ]
    api.mount("", backend)
    return api


app = rx.App(
    api_transformer=[_api_in_front, SiteMiddleware],
    head_components=[
        rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml"),
        rx.el.meta(name="color-scheme", content="light"),
        rx.el.style(site_stylesheet()),
    ],
    style=GLOBAL_STYLE,
    stylesheets=["/site.css"],
    backend_exception_handler=site_messages.unexpected_error,
)
# The spec's no-response toast in place of Reflex's connection toast.
app.app_wraps[(5, "Overlay")] = site_messages.overlay
register_pages(app)
app.register_lifespan_task(deliver_forever)
app.register_lifespan_task(live_connection.serve)


@asynccontextmanager
async def _outside_service_clients():
    """The clients' pooled connections are closed when the site stops."""
    yield
    await pooled.close_all()


app.register_lifespan_task(_outside_service_clients)
app.register_lifespan_task(bound_worker_threads)


def _collect_garbage_less_often() -> None:
    """Each open tab keeps a tree of states in memory, and a collection of the older generations walks all
    of them: with Python's default thresholds (700, 10, 10) 500 held riders waited p95 2.4 s, with these
    0.35 s (scripts/bench/load.py). Young objects are collected every 50,000 allocations; a full pass comes
    with the allocations that make its garbage."""
    gc.set_threshold(50_000, 50, 1_000)


app.register_lifespan_task(_collect_garbage_less_often)


def own_lease_identity(app: rx.App) -> None:
    """Several workers: Reflex makes the Redis state manager before the server forks its workers, so all of
    them asked for a tab's state under one name. A worker that stopped waiting took the others' requests
    out with its own, and the worker holding the tab's lease kept it to its end (`STATE_LEASE_MS`) while
    an upload sent to another worker waited. Each worker asks under a name of its own."""
    if isinstance(app.state_manager, StateManagerRedis):
        app.state_manager._instance_id = str(uuid.uuid4())


app.register_lifespan_task(own_lease_identity)
