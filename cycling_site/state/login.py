"""The SIGN IN screen: the form, the human check and the post-login destination."""

import json
from urllib.parse import urlencode

import reflex as rx

from cycling_site.db import get_session
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import accounts, passwords, verification
from cycling_site.services.accounts import EmailNotVerified, FormErrors
from cycling_site.services.codes import CodeError
from cycling_site.services.validation import checkbox_on
from cycling_site.settings import settings
from cycling_site.state.session import HOME_AFTER_LOGIN, SessionState

EXPIRY_REASONS = {"session_expired", "token_expired"}


def internal_path(value: str | None) -> str:
    """A same-site path, or '' (an open redirect is never followed)."""
    value = (value or "").strip()
    if value.startswith("/") and not value.startswith(("//", "/\\")) and len(value) <= 2000:
        return value
    return ""


def content_site_target(value: str | None) -> str:
    """A redirect_to from the content site: same-site, or under CONTENT_SITE_URL."""
    value = (value or "").strip()
    base = settings.content_site_url.rstrip("/")
    if base and (value == base or value.startswith(base + "/")) and len(value) <= 2000:
        return value
    return internal_path(value)


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
    def can_submit(self) -> bool:
        return bool(self.human_check_payload) and not self.submitting

    @rx.event
    async def load(self):
        params = self.router.url.query_parameters
        session_state = await self.get_state(SessionState)
        self.errors = {}
        self.submitting = False
        self.unverified_email = self.resend_note = ""
        self.notice = msg.SESSION_EXPIRED if params.get("reason") in EXPIRY_REASONS else ""
        if redirect := internal_path(params.get("redirect")):
            self.stored_redirect = redirect
        if redirect_to := content_site_target(params.get("redirect_to")):
            self.stored_redirect_to = redirect_to
        if params.get("action") == "logout":
            session_state.end()
            return None
        if session_state.token and session_state._check() == "ok":
            return rx.redirect(HOME_AFTER_LOGIN, replace=True)
        session_state.end()
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
        target = (
            self.stored_redirect_to
            or self.stored_redirect
            or internal_path(self.router.url.query_parameters.get("referer"))
            or HOME_AFTER_LOGIN
        )
        self.stored_redirect_to = ""
        self.stored_redirect = ""
        return target

    @rx.event
    def resend_verification(self) -> None:
        try:
            with get_session() as session:
                verification.resend_for_email(session, self.unverified_email, tell_limit=True)
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
        try:
            with get_session() as session:
                result = accounts.login(
                    session,
                    str(form_data.get("email", "")),
                    str(form_data.get("password", "")),
                    checkbox_on(form_data.get("remember")),
                    payload,
                    self.router.session.client_ip,
                )
        except FormErrors as exc:
            self.errors = exc.errors
            if isinstance(exc, EmailNotVerified):
                self.unverified_email = str(form_data.get("email", ""))
            return
        finally:
            self.submitting = False

        if result.kind == "key":
            with get_session() as session:
                code = passwords.forced_reset_code(session, result.account)
            yield rx.redirect(f"{path_of('resetpassword')}?{urlencode({'code': code, 'forced': 1})}")
        elif result.kind == "consent":
            query = urlencode({"childUserId": result.account.uuid, "userAge": result.user_age})
            yield rx.redirect(f"{path_of('parental-consent')}?{query}")
        else:
            session_state = await self.get_state(SessionState)
            session_state.start(result.token, result.account)
            target = self._destination()
            if target.startswith("/"):
                yield rx.redirect(target)
            else:
                yield rx.call_script(f"window.location.assign({json.dumps(target)})")
