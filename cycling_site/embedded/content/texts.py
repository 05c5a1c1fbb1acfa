"""The content service's own answers (it stands in for an outside service, so its texts are its own)."""

UNAUTHORISED = "A valid API key is required."
NOT_FOUND = "No content with this slug."
UNREADABLE = "This content cannot be read at the moment."
