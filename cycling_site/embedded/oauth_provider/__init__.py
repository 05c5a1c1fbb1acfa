"""The embedded OAuth 2 provider that stands in for every fitness app with no client id configured.

The site's OAuth client (clients/oauth.py) reaches it over HTTP as it reaches a real app, with the
contract in wire/oauth.py."""
