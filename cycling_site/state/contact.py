"""The Contact us form and the footer's Subscribe form."""

import reflex as rx

from cycling_site.db import in_session
from cycling_site.messages import contact as msg
from cycling_site.services import contact
from cycling_site.services.accounts import FormErrors
from cycling_site.services.contact import ContactForm
from cycling_site.state.changes import put
from cycling_site.state.dom import focus, reset_form

CONTACT_FORM_ID = "contact-form"
CONTACT_FIELDS = ("name", "email", "phone", "message")
SUBSCRIBE_FORM_ID = "subscribe-form"


class ContactState(rx.State):
    errors: dict[str, str] = {}
    sent: str = ""
    submitting: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    @rx.event
    def load(self) -> None:
        self.errors = {}
        self.sent = ""
        self.submitting = False

    @rx.event
    async def submit(self, form_data: dict):
        """Shows the busy button at once, then sends; on success confirms and empties the form."""
        self.submitting = True
        self.errors = {}
        self.sent = ""
        yield
        form = ContactForm(**{name: str(form_data.get(name, "")) for name in CONTACT_FIELDS})
        try:
            await in_session(contact.send_message, form, self.router.session.client_ip)
        except FormErrors as exc:
            self.errors = exc.errors
            first = next((name for name in CONTACT_FIELDS if name in exc.errors), None)
            if first:
                yield focus(first)
            return
        finally:
            self.submitting = False
        self.sent = msg.SENT
        yield reset_form(CONTACT_FORM_ID)


class SubscribeState(rx.State):
    error: str = ""
    notice: str = ""
    submitting: bool = False

    @rx.event
    def clear_messages(self) -> None:
        """The footer's notice belongs to the page it was given on, not to the next one."""
        put(self, error="", notice="")

    @rx.event
    async def submit(self, form_data: dict):
        self.submitting = True
        self.error = ""
        self.notice = ""
        yield
        try:
            await in_session(
                contact.subscribe, str(form_data.get("email", "")), self.router.session.client_ip
            )
        except FormErrors as exc:
            self.error = next(iter(exc.errors.values()))
            return
        finally:
            self.submitting = False
        self.notice = msg.SUBSCRIBED
        yield reset_form(SUBSCRIBE_FORM_ID)
