"""The results service's contract with the site's results page.

The page frames the service at EMBEDDED_PREFIX (or RESULTS_SERVICE_URL) with ?eventId=&dayId=. A link
in the frame does not navigate it: it posts {type, eventId, dayId} to the parent page, where type is
"events" (the list), "series" (a race's overall standings) or "single" (one day)."""

EMBEDDED_PREFIX = "/results-service"
# The kinds that name an event (the others lead to the list of events).
EVENT_MESSAGES = ("series", "single")
