"""Contact us and Subscribe (spec 2 section 7: POST contact, POST subscribe)."""

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from cycling_site.api.answers import Message
from cycling_site.api.deps import DB
from cycling_site.api.errors import documented
from cycling_site.api.rules import EMAIL, lines_at_least, requires, text
from cycling_site.messages import contact as msg
from cycling_site.services import contact
from cycling_site.services.contact import ContactForm

router = APIRouter(tags=["contact"])

# Far above what the rules accept: longer input is refused before any work is done.
SHORT = 300
LONG = 20_000


class ContactIn(BaseModel):
    model_config = requires("name", "email", "message")

    name: str = Field(default="", max_length=SHORT, json_schema_extra=text(contact.NAME_MAX))
    phone: str | None = Field(
        default=None,
        max_length=SHORT,
        description="Optional; a real number (UAE numbers without their dial code)",
        json_schema_extra={"maxLength": contact.PHONE_MAX},
    )
    email: str = Field(default="", max_length=SHORT, json_schema_extra=EMAIL)
    message: str = Field(
        default="",
        max_length=LONG,
        json_schema_extra={
            "minLength": contact.MESSAGE_MIN,
            "maxLength": contact.MESSAGE_MAX,
            "pattern": lines_at_least(contact.MESSAGE_MIN),
        },
    )


class SubscribeIn(BaseModel):
    model_config = requires("email")

    email: str = Field(default="", max_length=SHORT, json_schema_extra=EMAIL)


def _client_address(request: Request) -> str:
    return request.client.host if request.client else ""


@router.post("/contact", responses=documented(400, 403, 413, 429, 503))
def send_contact_message(body: ContactIn, request: Request, session: DB) -> Message:
    """Stores the message and e-mails it to support; 400 with errors per field on bad input."""
    form = ContactForm(name=body.name, phone=body.phone or "", email=body.email, message=body.message)
    contact.send_message(session, form, _client_address(request))
    return Message(message=msg.SENT)


@router.post("/subscribe", responses=documented(400, 403, 413, 429, 503))
def subscribe(body: SubscribeIn, request: Request, session: DB) -> Message:
    """Answers the same for a new and an already subscribed address."""
    contact.subscribe(session, body.email, _client_address(request))
    return Message(message=msg.SUBSCRIBED)
