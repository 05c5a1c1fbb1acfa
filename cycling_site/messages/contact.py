"""Contact us and Subscribe texts (spec 2 sections 2 and 5)."""

from cycling_site.messages.accounts import EMAIL_REQUIRED_VALID

NAME_REQUIRED = "First Name is required"
EMAIL_REQUIRED = EMAIL_REQUIRED_VALID
MESSAGE_TOO_SHORT = "Message must be at least 10 characters long"
PHONE_INVALID = "Please enter a valid phone number"

# Texts the spec does not give.
TITLE = "Contact us"
INTRO = (
    "Questions about an event, your account or a race result? Write to us and our support team will reply."
)
EMAIL_US = "You can also write to us directly at"
SENT = "Thank you for your message. Our support team will get back to you soon."
TOO_MANY_MESSAGES = "You have sent several messages in a short time. Please try again later."
SUBSCRIBE_TITLE = "Race news"
SUBSCRIBE_INTRO = "New events and results in your inbox."
SUBSCRIBED = "You are subscribed."
TOO_MANY_SUBSCRIPTIONS = "Too many subscriptions from your connection. Please try again later."
SUPPORT_SUBJECT = "Contact us: message from {name}"
PHONE_NOT_GIVEN = "not given"


def too_long(label: str, limit: int) -> str:
    return f"{label} must be at most {limit} characters."
