"""Forgot password and reset password screens."""

import reflex as rx

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import passwords
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import FormErrors
from cycling_site.state.site_messages import display


class ForgotPasswordState(rx.State):
    errors: dict[str, str] = {}
    submitting: bool = False

    @rx.event
    def load(self) -> None:
        self.errors = {}
        self.submitting = False

    @rx.event
    async def submit(self, form_data: dict):
        self.submitting = True
        self.errors = {}
        yield
        try:
            await in_session(passwords.request_reset, str(form_data.get("email", "")))
        except FormErrors as exc:
            self.errors = exc.errors
            return
        finally:
            self.submitting = False
        yield display(msg.RESET_SENT, duration=8000)
        yield rx.redirect("/")


class ResetPasswordState(rx.State):
    errors: dict[str, str] = {}
    submitting: bool = False
    has_code: bool = True
    forced: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    def _code(self) -> str:
        return self.router.url.query_parameters.get("code", "")

    @rx.event
    def load(self) -> None:
        self.errors = {}
        self.submitting = False
        self.has_code = bool(self._code())
        self.forced = self.router.url.query_parameters.get("forced") == "1"

    @rx.event
    async def submit(self, form_data: dict):
        self.submitting = True
        self.errors = {}
        yield
        try:
            await in_session(
                passwords.reset,
                self._code(),
                str(form_data.get("password", "")),
                str(form_data.get("repeatPassword", "")),
            )
        except FormErrors as exc:
            self.errors = exc.errors
            return
        except CodeError as exc:
            self.errors = {"form": str(exc)}
            return
        finally:
            self.submitting = False
        yield display(msg.PASSWORD_RESET_DONE, duration=8000)
        yield rx.redirect(path_of("login"))
