"""The product REST API (FastAPI) over the services, mounted under /api."""
