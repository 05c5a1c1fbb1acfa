"""Re-checks the session on a timer, on window focus and when the tab becomes visible."""

import reflex as rx
from reflex.event import no_args_event_spec


class SessionWatch(rx.Component):
    library = rx.asset("session_watch.jsx", shared=True).importable_path
    tag = "SessionWatch"

    interval_ms: rx.Var[int]
    on_check: rx.EventHandler[no_args_event_spec]


session_watch = SessionWatch.create
