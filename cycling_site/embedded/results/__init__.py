"""The embedded results service: stored race results and the page the results screen shows in a frame.

It owns its tables (models.py) and its router (service.py); the site points its frame at it through
clients/results.py, over the contract in wire/results.py."""
