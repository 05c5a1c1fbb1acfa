"""The embedded activity service: rides as FIT files, their metrics and curves, progress, demo rides.

It owns its tables (models.py) and its router (service.py); the site reaches it only through
clients/activity.py, over the contract in wire/activity.py."""
