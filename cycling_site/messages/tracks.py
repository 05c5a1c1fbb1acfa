"""Texts of the tracks page (spec 2 section 2)."""

TITLE = "Tracks"
SUBTITLE = "The courses of our races: know the climbs before you race them."
LOADING = "Loading tracks..."
EMPTY = "No tracks available at the moment."
