"""The site-wide messages of spec 2 section 8 that no screen owns: the server not answering, the pop-up of
errors a request was refused with, and an unexpected error while a screen's event ran. They replace
Reflex's own connection and error toasts."""

import json
import logging
import traceback

import reflex as rx
from reflex.components.core.banner import connect_errors, connection_pulser, has_too_many_connection_errors
from reflex.components.sonner.toast import toast_ref
from reflex.constants import Hooks
from reflex.vars import VarData

from components.action_watch import action_watch
from components.countdown import countdown
from cycling_site.db import database_busy
from cycling_site.messages import site as msg
from cycling_site.services.validation import FormErrors
from cycling_site.settings import settings
from cycling_site.state.site_messages import POPUP_SECONDS, ErrorsPopupState, errors_popup
from cycling_site.ui.theme import COLOR, SIZE

log = logging.getLogger(__name__)

NO_RESPONSE_TOAST_ID = "no-response"
# An action waiting longer than this shows the bar at the top; one waiting longer than SLOW_WAIT_MS, or a page
# without its live connection that long, says so and offers to try again.
BUSY_MS = 400
SLOW_WAIT_MS = 8_000


class NoResponseToaster(rx.Fragment):
    """Shows the spec's no-response toast while the live connection is lost, and removes it once the site
    answers again."""

    def add_hooks(self) -> list[str | rx.Var]:
        options = json.dumps({"id": NO_RESPONSE_TOAST_ID, "duration": 3_600_000, "closeButton": True})
        show = f"{toast_ref}?.error({json.dumps(msg.NO_RESPONSE)}, {options})"
        hide = f"{toast_ref}?.dismiss({json.dumps(NO_RESPONSE_TOAST_ID)})"
        lost = has_too_many_connection_errors
        effect = f"useEffect(() => {{ if ({lost}) {{ {show}; }} else {{ {hide}; }} }}, [{connect_errors}])"
        imports = VarData(imports={"react": ["useEffect"]})
        return [
            Hooks.CONNECT_ERRORS,
            rx.Var(effect, _var_data=VarData.merge(toast_ref._get_all_var_data(), imports)),
        ]


@rx.memo
def _connection_messages() -> rx.Component:
    return rx.fragment(
        connection_pulser(),
        NoResponseToaster.create(),
        action_watch(
            busy_ms=BUSY_MS,
            slow_ms=SLOW_WAIT_MS,
            connecting_text=msg.SLOW_CONNECTING,
            waiting_text=msg.SLOW_ANSWER,
            try_again_text=msg.TRY_AGAIN,
            upload_failed=msg.UPLOAD_FAILED,
        ),
    )


def _error_paragraph(text: rx.Var) -> rx.Component:
    return rx.text(text, as_="p", color=COLOR["danger"])


def _errors_popup() -> rx.Component:
    """One paragraph per error, then the line to contact support; it closes itself after 10 s."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(msg.ERRORS_POPUP_TITLE),
            rx.vstack(
                rx.foreach(ErrorsPopupState.errors, _error_paragraph),
                id="errors-popup-errors",
                spacing="2",
            ),
            rx.text(
                msg.ERRORS_POPUP_SUPPORT.format(email=settings.support_email),
                as_="p",
                color=COLOR["muted"],
                font_size=SIZE["sm"],
                margin_top="12px",
            ),
            rx.flex(
                rx.dialog.close(rx.button("Close", id="errors-popup-close", variant="soft")),
                justify="end",
                margin_top="16px",
            ),
            countdown(
                seconds=POPUP_SECONDS,
                display="hidden",
                run_key=ErrorsPopupState.shown,
                on_complete=ErrorsPopupState.close,
            ),
            id="errors-popup",
            max_width="480px",
        ),
        open=ErrorsPopupState.errors.length() > 0,
        on_open_change=ErrorsPopupState.open_change,
    )


def overlay(stateful: bool) -> rx.Component | None:
    """The app's overlay: the connection pulse, the no-response toast and the errors pop-up (pages
    without state have none). The connection part is memoised, as Reflex's own is, so its hooks run
    inside the live connection's context."""
    return rx.fragment(_connection_messages(), _errors_popup()) if stateful else None


def unexpected_error(exception: Exception) -> rx.event.EventSpec:
    """An event handler failed. Refused input no form showed goes to the errors pop-up; a database busy
    past DB_POOL_TIMEOUT (a lock held elsewhere, no free connection) asks the rider to try again, as the REST
    API's 503 does; anything else gives the rider a plain error toast and the log the trace."""
    if isinstance(exception, FormErrors):
        return errors_popup(exception)
    if database_busy(exception):
        log.warning("Event handler found the database busy: %s", exception)
        return rx.toast.error(msg.DATABASE_BUSY, id="database-busy", position="top-center")
    log.error("Event handler failed\n%s", "".join(traceback.format_exception(exception)))
    return rx.toast.error(msg.SERVER_ERROR, id="server-error", position="top-center")
