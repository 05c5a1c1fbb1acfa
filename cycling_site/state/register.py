"""The sign-up screen: the form, its messages and where a new rider goes next."""

from datetime import UTC, datetime

import reflex as rx

from cycling_site.db import in_session
from cycling_site.messages import accounts as msg
from cycling_site.routes import path_of
from cycling_site.services import accounts
from cycling_site.services.accounts import FormErrors, RegistrationForm
from cycling_site.services.countries import countries, default_country_id
from cycling_site.services.validation import checkbox_on
from cycling_site.state.parental_consent import consent_page
from cycling_site.state.site_messages import display
from cycling_site.state.verification import VerifyOtpState

# The country the form starts on (the DEFAULT_COUNTRY setting), as the select's value.
DEFAULT_COUNTRY = str(default_country_id())
FIELDS = ("firstname", "lastname", "email", "password", "dob", "country", "gender", "weight", "height")


# The country picker's (id, name) options: built once, written into the page, never sent with the state.
COUNTRY_OPTIONS = [[str(cid), name] for cid, name in countries()]


class RegisterState(rx.State):
    errors: dict[str, str] = {}
    human_check_payload: str = ""
    human_check_reset: int = 0
    submitting: bool = False

    @rx.var(cache=True)
    def latest_dob(self) -> str:
        return accounts.latest_dob(datetime.now(UTC).date()).isoformat()

    @rx.var
    def can_submit(self) -> bool:
        return bool(self.human_check_payload) and not self.submitting

    @rx.event
    def load(self) -> None:
        """A page load shows the check unticked, so a payload kept from the tab's last visit goes too."""
        self.errors = {}
        self.submitting = False
        self.human_check_payload = ""

    @rx.event
    def human_check_verified(self, payload: str) -> None:
        self.human_check_payload = payload
        self.errors.pop("token", None)

    @rx.event
    def human_check_cleared(self) -> None:
        self.human_check_payload = ""

    @rx.event
    async def submit(self, form_data: dict):
        """Shows the busy button and resets the check at once, then creates the account."""
        self.submitting = True
        self.errors = {}
        form = RegistrationForm(
            **{name: str(form_data.get(name, "")) for name in FIELDS},
            consent=checkbox_on(form_data.get("consent")),
            marketing_consent=checkbox_on(form_data.get("marketing")),
            token=self.human_check_payload,
        )
        self.human_check_payload = ""
        self.human_check_reset += 1
        yield
        try:
            registration = await in_session(accounts.register, form)
        except FormErrors as exc:
            self.errors = exc.errors
            return
        finally:
            self.submitting = False
        # The Verify OTP page reads these to know whose code is typed.
        otp_state = await self.get_state(VerifyOtpState)
        otp_state.user_key = registration.verification_key
        otp_state.user_email = registration.account.email
        if registration.requires_parental_consent:
            yield rx.redirect(consent_page(registration.account, registration.user_age))
        else:
            yield display(msg.REGISTERED, duration=8000)
            yield rx.redirect(path_of("login"))
