"""Texts of the results service's pages."""

NO_RESULTS = "No results for this event yet."
NO_EVENTS = "No results yet. Standings appear here once an event has been raced."
EVENTS_HEADING = "Race results"
BACK_TO_EVENTS = "All events"
OVERALL = "Overall"
FINAL_STANDINGS = "Final standings"
