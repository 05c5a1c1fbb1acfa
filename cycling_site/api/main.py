"""The FastAPI app that carries the REST API; Reflex mounts itself inside it."""

from fastapi import FastAPI

from cycling_site.api import auth, human_check
from cycling_site.api.errors import install_error_handlers

API_PREFIX = "/api"

api = FastAPI(
    title="Cycling site API",
    docs_url=f"{API_PREFIX}/docs",
    openapi_url=f"{API_PREFIX}/openapi.json",
    redoc_url=None,
)
install_error_handlers(api)
api.include_router(auth.router, prefix=API_PREFIX)
api.include_router(human_check.router, prefix=API_PREFIX)
