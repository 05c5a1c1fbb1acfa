"""The SIGN IN screen: the form, the human check and the post-login destination."""

from urllib.parse import urlencode

import reflex as rx

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import accounts, passwords, tokens, verification
from cycling_site.services.accounts import EmailNotVerified, FormErrors
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import checkbox_on, content_site_target, internal_path
from cycling_site.settings import settings
from cycling_site.state.dom import focus
from cycling_site.state.parental_consent import consent_page
from cycling_site.state.session import HOME_AFTER_LOGIN, SessionState, end_session, start_session

EXPIRY_REASONS = {"session_expired", "token_expired"}


class LoginState(rx.State):
    errors: dict[str, str] = {}
    notice: str = ""
    human_check_payload: str = ""
    human_check_reset: int = 0
    submitting: bool = False
    unverified_email: str = ""
    resend_note: str = ""
    stored_redirect: str = rx.LocalStorage("", name="login_redirect")
    stored_redirect_to: str = rx.LocalStorage("", name="login_redirect_to")

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    @rx.var
    def credentials_refused(self) -> bool:
        """Wrong email or password: both fields are marked, as either may be the wrong one."""
        return self.errors.get("form") == msg.LOGIN_FAILED

    @rx.var
    def can_submit(self) -> bool:
        return bool(self.human_check_payload) and not self.submitting

    @rx.event
    async def load(self):
        params = self.router.url.query_parameters
        self.errors = {}
        self.submitting = False
        # A page load shows the check unticked: a payload kept from the tab's last visit would enable Submit
        # under an empty box.
        self.human_check_payload = ""
        self.unverified_email = self.resend_note = ""
        self.notice = msg.SESSION_EXPIRED if params.get("reason") in EXPIRY_REASONS else ""
        if redirect := internal_path(params.get("redirect")):
            self.stored_redirect = redirect
        if redirect_to := content_site_target(params.get("redirect_to"), settings.content_site_url):
            self.stored_redirect_to = redirect_to
        if params.get("action") == "logout":
            return end_session(path_of("login"))
        # The route guard, which runs first, has checked the session and removed dead cookies.
        if (await self.get_state(SessionState)).signed_in:
            return rx.redirect(HOME_AFTER_LOGIN, replace=True)
        return None

    @rx.event
    def human_check_verified(self, payload: str) -> None:
        self.human_check_payload = payload
        self.errors.pop("token", None)

    @rx.event
    def human_check_cleared(self) -> None:
        self.human_check_payload = ""

    def _reset_human_check(self) -> None:
        self.human_check_payload = ""
        self.human_check_reset += 1

    def _destination(self) -> str:
        """Where the rider asked to go; browser storage is client input, so it is checked again here."""
        target = (
            content_site_target(self.stored_redirect_to, settings.content_site_url)
            or internal_path(self.stored_redirect)
            or internal_path(self.router.url.query_parameters.get("referer"))
            or HOME_AFTER_LOGIN
        )
        self.stored_redirect_to = ""
        self.stored_redirect = ""
        return target

    @rx.event
    async def resend_verification(self) -> None:
        try:
            await in_session(verification.resend_for_email, self.unverified_email, True)
        except CodeError as exc:
            self.resend_note = str(exc)
        else:
            self.resend_note = msg.VERIFICATION_SENT

    @rx.event
    async def submit(self, form_data: dict):
        """Shows the busy button and resets the check at once, then signs in."""
        self.submitting = True
        self.errors = {}
        self.unverified_email = self.resend_note = ""
        payload = self.human_check_payload
        self._reset_human_check()
        yield
        remember = checkbox_on(form_data.get("remember"))
        try:
            result = await in_session(
                accounts.login,
                str(form_data.get("email", "")),
                str(form_data.get("password", "")),
                remember,
                payload,
                self.router.session.client_ip,
            )
        except FormErrors as exc:
            self.errors = exc.errors
            if isinstance(exc, EmailNotVerified):
                self.unverified_email = str(form_data.get("email", ""))
            yield focus("password" if "password" in exc.errors and "email" not in exc.errors else "email")
            return
        finally:
            self.submitting = False

        if result.kind == "key":
            code = await in_session(passwords.forced_reset_code, result.account)
            yield rx.redirect(f"{path_of('resetpassword')}?{urlencode({'code': code, 'forced': 1})}")
        elif result.kind == "consent":
            yield rx.redirect(consent_page(result.account, result.user_age))
        else:
            yield start_session(tokens.sign_in_handle(result.account, remember, self._destination()))
