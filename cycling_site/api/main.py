"""The FastAPI app that carries the REST API; Reflex mounts itself inside it.

FastAPIOffline serves the Swagger UI at /api/docs from a local copy: the site fetches nothing from outside.
"""

from fastapi_offline import FastAPIOffline

from cycling_site.api import (
    auth,
    browser_session,
    connections,
    contact,
    events,
    finance,
    human_check,
    pre_verification,
    profile,
    race_control,
    reference,
    registrations,
    rider_profile,
    robots,
    shop,
    teams,
    third_party_import,
    verification,
    wallet,
    weigh_ins,
)
from cycling_site.api.errors import install_error_handlers
from cycling_site.api.methods import ApiMethods
from cycling_site.settings import settings

API_PREFIX = "/api"
# The app's deletion request is under /mobile (spec 2 section 7), beside the API.
MOBILE_PREFIX = "/mobile"

api = FastAPIOffline(
    title=f"{settings.site_name} API",
    docs_url=f"{API_PREFIX}/docs",
    redoc_url=None,
    openapi_url=f"{API_PREFIX}/openapi.json",
    swagger_ui_oauth2_redirect_url=f"{API_PREFIX}/docs/oauth2-redirect",
    static_url=f"{API_PREFIX}/docs-assets",
    favicon_url="/favicon.svg",
)
install_error_handlers(api)
api.add_middleware(ApiMethods, router=api.router, prefixes=(API_PREFIX, MOBILE_PREFIX))
api.include_router(auth.router, prefix=API_PREFIX)
api.include_router(browser_session.router, prefix=API_PREFIX)
api.include_router(human_check.router, prefix=API_PREFIX)
api.include_router(verification.router, prefix=API_PREFIX)
api.include_router(connections.router, prefix=API_PREFIX)
api.include_router(contact.router, prefix=API_PREFIX)
api.include_router(profile.router, prefix=API_PREFIX)
api.include_router(rider_profile.router, prefix=API_PREFIX)
api.include_router(registrations.router, prefix=API_PREFIX)
api.include_router(events.router, prefix=API_PREFIX)
api.include_router(shop.router, prefix=API_PREFIX)
api.include_router(pre_verification.router, prefix=API_PREFIX)
api.include_router(race_control.router, prefix=API_PREFIX)
api.include_router(third_party_import.router, prefix=API_PREFIX)
api.include_router(weigh_ins.router, prefix=API_PREFIX)
api.include_router(wallet.router, prefix=API_PREFIX)
api.include_router(finance.router, prefix=API_PREFIX)
api.include_router(teams.router, prefix=API_PREFIX)
api.include_router(reference.router, prefix=API_PREFIX)
api.include_router(reference.mobile_router)
api.include_router(robots.router)
