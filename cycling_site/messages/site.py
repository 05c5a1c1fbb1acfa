"""Texts of the frame, the guards and the site-wide messages."""

IFRAME_WARNING = "This website cannot be embedded in an iframe."
BAD_REQUEST = "The request could not be understood."
SERVER_ERROR = "Something went wrong on our side. Please try again later."
# Spec 2 section 8: the server does not answer.
NO_RESPONSE = "No response received. We regret the inconvenience. Please try again later."
NOT_FOUND = "Not found."
METHOD_NOT_ALLOWED = "This method is not allowed here."
REQUEST_TOO_LARGE = "The upload is too large."
CROSS_SITE_REFUSED = "This request came from another website and was refused."
DATABASE_BUSY = "The site is busy right now. Please try again in a moment."
# Spec 2 section 8: a request the server refused with an errors object, shown in a pop-up.
ERRORS_POPUP_TITLE = "We could not do that"
ERRORS_POPUP_SUPPORT = "If this keeps happening, please contact support at {email}."
