"""httpx clients for the services outside the web process; each talks a wire contract."""
