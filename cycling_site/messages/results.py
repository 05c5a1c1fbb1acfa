"""Texts of the results page (spec 3 section 2); the framed results service has its own."""

TITLE = "Results"
SUBTITLE = "Standings of past events: pick an event, then a day or the overall standings."
FRAME_TITLE = "Race results"
