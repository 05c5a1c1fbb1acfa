"""Parental consent: the kid's screen (asks for the parent's e-mail) and the parent's decision screen."""

from urllib.parse import urlencode

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.models import Account
from cycling_site.routes import path_of
from cycling_site.services import parental_consent
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import FormErrors
from cycling_site.state.site_messages import display

RESEND_WAIT_SECONDS = int(parental_consent.RESEND_WAIT.total_seconds())
AUTO_REDIRECT_MS = 720_000


def consent_page(child: Account, user_age: int) -> str:
    """Where a kid awaiting approval goes after sign-up or sign-in (spec 2: childUserId and userAge)."""
    query = urlencode({"childUserId": parental_consent.consent_handle(child), "userAge": user_age})
    return f"{path_of('parental-consent')}?{query}"


class ParentalConsentState(rx.State):
    """form, then sent (Resend waits 300 s, Edit email goes back); after 720000 ms, to login."""

    handle: str = ""
    user_age: str = ""
    parent_email: str = ""
    sent: bool = False
    resend_ready: bool = False
    run: int = 0
    errors: dict[str, str] = {}
    submitting: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    @rx.event
    async def load(self):
        params = self.router.url.query_parameters
        handle = params.get("childUserId", "")
        if not handle:
            return rx.redirect(path_of("register"), replace=True)
        if handle != self.handle:
            # Another child (or a first visit): start from the form. A reload keeps the sent state.
            self.handle = handle
            self.parent_email = ""
            self.sent = False
        self.user_age = params.get("userAge", "")
        self.errors = {}
        approved = await in_session(parental_consent.is_approved, handle)
        if approved:
            return [display(msg.CONSENT_APPROVED), rx.redirect(path_of("login"), replace=True)]
        return None

    async def _send(self, email: str, failed: str):
        """`failed` is the spec's message for an e-mail that could not be sent (or resent)."""
        self.submitting = True
        self.errors = {}
        yield
        try:
            await in_session(parental_consent.request_consent, self.handle, email)
        except FormErrors as exc:
            self.errors = exc.errors
            return
        except SQLAlchemyError:
            self.errors = {"form": failed}
            return
        finally:
            self.submitting = False
        self.parent_email = email
        self.sent = True
        self.resend_ready = False
        self.run += 1

    @rx.event
    async def submit(self, form_data: dict):
        async for update in self._send(str(form_data.get("parentEmail", "")).strip(), msg.EMAIL_SEND_ERROR):
            yield update

    @rx.event
    async def resend(self):
        if not self.resend_ready:
            return
        async for update in self._send(self.parent_email, msg.EMAIL_RESEND_ERROR):
            yield update

    @rx.event
    def allow_resend(self) -> None:
        self.resend_ready = True

    @rx.event
    def edit_email(self) -> None:
        """Back to the form; the countdowns unmount with the sent state, which cancels them."""
        self.sent = False
        self.errors = {}

    @rx.event
    def time_up(self):
        return rx.redirect(path_of("login"))


class ParentApprovalState(rx.State):
    """loading, then review (approve or decline), then done; or failed with the reason."""

    status: str = "loading"
    message: str = ""
    child_name: str = ""
    child_age: int = 0
    child_email: str = ""
    deciding: bool = False

    def _code(self) -> str:
        return self.router.url.query_parameters.get("code", "")

    @rx.event
    async def load(self) -> None:
        self.status, self.message = "loading", ""
        try:
            request = await in_session(parental_consent.review, self._code())
        except CodeError as exc:
            self.status, self.message = "failed", str(exc)
            return
        self.child_name, self.child_age, self.child_email = (
            request.child_name,
            request.child_age,
            request.child_email,
        )
        self.status = "review"

    @rx.event
    async def decide(self, approve: bool):
        self.deciding = True
        yield
        try:
            await in_session(parental_consent.decide, self._code(), approve)
        except CodeError as exc:
            self.status, self.message = "failed", str(exc)
        else:
            self.status = "approved" if approve else "declined"
            self.message = msg.CONSENT_APPROVED if approve else msg.CONSENT_DECLINED
        finally:
            self.deciding = False
