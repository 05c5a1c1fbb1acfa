"""Texts of the frame, guards and placeholder screens."""

IFRAME_WARNING = "This website cannot be embedded in an iframe."
COMING_SOON = "This screen is coming soon."
BAD_REQUEST = "The request could not be understood."
SERVER_ERROR = "Something went wrong on our side. Please try again later."
NOT_FOUND = "Not found."
REQUEST_TOO_LARGE = "The upload is too large."
