"""The site-wide messages of spec 2 section 8 that no screen owns: the server not answering, and an
unexpected error while a screen's event ran. They replace Reflex's own connection and error toasts."""

import json
import logging
import traceback

import reflex as rx
from reflex.components.core.banner import connect_errors, connection_pulser, has_too_many_connection_errors
from reflex.components.sonner.toast import toast_ref
from reflex.constants import Hooks
from reflex.vars import VarData

from cycling_site.messages import site as msg

log = logging.getLogger(__name__)

NO_RESPONSE_TOAST_ID = "no-response"


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
    return rx.fragment(connection_pulser(), NoResponseToaster.create())


def overlay(stateful: bool) -> rx.Component | None:
    """The app's overlay: the connection pulse and the no-response toast (pages without state have none).
    Memoised, as Reflex's own is, so its hooks run inside the live connection's context."""
    return rx.fragment(_connection_messages()) if stateful else None


def unexpected_error(exception: Exception) -> rx.event.EventSpec:
    """An event handler failed: the rider gets a plain error toast, the log gets the trace."""
    log.error("Event handler failed\n%s", "".join(traceback.format_exception(exception)))
    return rx.toast.error(msg.SERVER_ERROR, id="server-error", position="top-center")
