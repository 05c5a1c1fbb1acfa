"""The site-wide message rules of spec 2 sections 7-8 and spec 3 section 7, for every screen.

A message the server has the rider shown (the spec's `display`) is a success toast. Errors a request was
refused with (a 400's errors object) show in a pop-up, one paragraph each and a line to contact support,
for 10 s. Screens with a form show their errors beside its fields instead; the pop-up takes what no form
owns (a button's action refused by the server)."""

import reflex as rx

from cycling_site.services.validation import FormErrors

POPUP_SECONDS = 10
POPUP_MAX_ERRORS = 10
POPUP_ERROR_MAX_CHARS = 300


def display(message: str, **props) -> rx.event.EventSpec:
    return rx.toast.success(message, **props)


class ErrorsPopupState(rx.State):
    errors: list[str] = []
    # Starts the 10 s again for each new pop-up.
    shown: int = 0

    @rx.event
    def show(self, errors: list[str]) -> None:
        self.errors = [str(text)[:POPUP_ERROR_MAX_CHARS] for text in errors[:POPUP_MAX_ERRORS]]
        self.shown += 1

    @rx.event
    def close(self) -> None:
        self.errors = []

    @rx.event
    def open_change(self, is_open: bool) -> None:
        if not is_open:
            self.errors = []


def errors_popup(refusal: FormErrors) -> rx.event.EventSpec:
    return ErrorsPopupState.show(list(refusal.errors.values()))
