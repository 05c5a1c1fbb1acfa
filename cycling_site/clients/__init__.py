"""Clients for the services outside the web process (messaging, activity, payment, content), each
talking a wire contract."""
