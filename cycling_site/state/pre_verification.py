"""The pre-verification form (/pre-verification-form): editing -> validating -> submitting -> submitted.

Only a rider who may submit stays on the page; others go to their profile (spec 3 section 4). The form's
fields are read from the submitted form, never kept between visits: leaving without submitting loses them.
"""

import asyncio
import json

import reflex as rx
from sqlalchemy.exc import SQLAlchemyError

from cycling_site.messages import pre_verification as msg
from cycling_site.services import pre_verification
from cycling_site.services.pre_verification import Form
from cycling_site.services.validation import FormErrors
from cycling_site.state.session import HOME_AFTER_LOGIN, Rider, rider_action

FORM_ID = "pre-verification-form"
FIELDS = tuple(Form.__dataclass_fields__)
# The rider's way back: the page before, or the profile when the form was opened directly.
GO_BACK = (
    "window.history.length > 1 ? window.history.back()"
    f" : window.location.assign({json.dumps(HOME_AFTER_LOGIN)})"
)
ANY_FIELD_FILLED = (
    f"Array.from(new FormData(document.getElementById({json.dumps(FORM_ID)})).values())"
    ".some((value) => String(value).trim() !== '')"
)


class PreVerificationState(rx.State):
    errors: dict[str, str] = {}
    submitting: bool = False
    submitted: bool = False
    confirm_cancel: bool = False

    @rx.var
    def form_error(self) -> str:
        return self.errors.get("form", "")

    @rx.var
    def field_errors(self) -> list[str]:
        """The top list of spec 3 section 8: each field's message, in the form's order."""
        return [self.errors[name] for name in FIELDS if name in self.errors]

    @rx.event
    @rider_action()
    async def load(self, rider: Rider):
        self.errors = {}
        self.submitting = self.submitted = self.confirm_cancel = False
        if not pre_verification.may_submit(rider.account):
            return rx.redirect(HOME_AFTER_LOGIN, replace=True)
        return None

    @rx.event
    @rider_action(busy="submitting", errors="errors")
    async def submit(self, rider: Rider, form_data: dict):
        form = Form(**{name: str(form_data.get(name, "")) for name in FIELDS})
        try:
            await rider.off_loop(pre_verification.submit, rider.account, form)
        except SQLAlchemyError:
            self.errors = {"form": msg.SUBMIT_ERROR}
            yield rx.toast.error(msg.SUBMISSION_FAILED, description=msg.SUBMIT_ERROR)
            return
        except FormErrors as exc:
            self.errors = exc.errors
            if "form" in exc.errors:
                # Not about a field (spec 3 section 8): a toast with the message as well.
                yield rx.toast.error(msg.SUBMISSION_FAILED, description=exc.errors["form"])
            yield rx.call_script("window.scrollTo({top: 0, behavior: 'smooth'})")
            return
        self.submitted = True
        yield [
            rx.call_script("window.scrollTo({top: 0, behavior: 'smooth'})"),
            PreVerificationState.go_to_profile,
        ]

    @rx.event(background=True)
    async def go_to_profile(self):
        """The thank-you stays up for three seconds (spec 3 section 9), then the rider's profile."""
        await asyncio.sleep(pre_verification.REDIRECT_SECONDS)
        yield rx.redirect(HOME_AFTER_LOGIN)

    @rx.event
    def cancel(self):
        """Asks only when something was typed (spec 3 section 4)."""
        return rx.call_script(ANY_FIELD_FILLED, callback=PreVerificationState.cancel_checked)

    @rx.event
    def cancel_checked(self, filled: bool):
        if filled is True:
            self.confirm_cancel = True
            return None
        return rx.call_script(GO_BACK)

    @rx.event
    def keep_editing(self) -> None:
        self.confirm_cancel = False

    @rx.event
    def confirm_leave(self):
        self.confirm_cancel = False
        self.errors = {}
        return [
            rx.call_script(f"document.getElementById({json.dumps(FORM_ID)})?.reset()"),
            rx.call_script(GO_BACK),
        ]
