"""A countdown that shows m:ss and reports when it reaches zero (resend waits, auto-redirects)."""

import reflex as rx
from reflex.event import no_args_event_spec


class Countdown(rx.Component):
    library = rx.asset("countdown.jsx", shared=True).importable_path
    tag = "Countdown"

    seconds: rx.Var[int]
    run_key: rx.Var[int]
    hidden: rx.Var[bool]
    on_done: rx.EventHandler[no_args_event_spec]


countdown = Countdown.create
