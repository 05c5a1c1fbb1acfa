"""E-mail verification screens: the link pages (/verify-user, /verify-kid) and the Verify OTP page."""

import reflex as rx

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import verification
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import FormErrors
from cycling_site.state.site_messages import display


class VerifyLinkState(rx.State):
    """pending, then success or failed (with Resend when the link names an account)."""

    status: str = "pending"
    message: str = ""
    resend_note: str = ""
    resending: bool = False

    def _code(self) -> str:
        return self.router.url.query_parameters.get("es", "")

    @rx.event
    async def load(self) -> None:
        self.status = "pending"
        self.message = self.resend_note = ""
        try:
            await in_session(verification.verify_link, self._code())
        except CodeError as exc:
            self.status, self.message = "failed", str(exc)
        else:
            self.status, self.message = "success", msg.EMAIL_VERIFIED

    @rx.event
    async def resend(self):
        self.resending = True
        yield
        try:
            await in_session(verification.resend_for_link, self._code())
        except CodeError as exc:
            told = (msg.EMAIL_VERIFIED, msg.TOO_MANY_EMAILS)
            self.resend_note = str(exc) if str(exc) in told else msg.EMAIL_RESEND_ERROR
        else:
            self.resend_note = msg.VERIFICATION_SENT
        finally:
            self.resending = False


class VerifyOtpState(rx.State):
    user_key: str = rx.LocalStorage("", name="user_key")
    user_email: str = rx.LocalStorage("", name="user_email")
    errors: dict[str, str] = {}
    notice: str = ""
    submitting: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    @rx.event
    def load(self) -> None:
        self.errors = {}
        self.notice = ""
        self.submitting = False
        if key := self.router.url.query_parameters.get("key", ""):
            self.user_key = key

    @rx.event
    async def submit(self, form_data: dict):
        self.submitting = True
        self.errors = {}
        self.notice = ""
        yield
        try:
            await in_session(verification.verify_otp, self.user_key, str(form_data.get("otp", "")))
        except FormErrors as exc:
            self.errors = exc.errors
            return
        except CodeError as exc:
            self.errors = {"form": str(exc)}
            return
        finally:
            self.submitting = False
        self.user_key = ""
        self.user_email = ""
        yield display(msg.EMAIL_VERIFIED)
        yield rx.redirect(path_of("login"))

    @rx.event
    async def new_code(self):
        self.errors = {}
        try:
            self.user_key = await in_session(verification.resend_for_key, self.user_key)
        except CodeError as exc:
            self.errors = {"form": str(exc) if str(exc) == msg.TOO_MANY_EMAILS else msg.EMAIL_RESEND_ERROR}
        else:
            self.notice = msg.VERIFICATION_SENT
