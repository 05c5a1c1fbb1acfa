"""The site's one countdown, on react-countdown: the weigh-in banner's days, hours, minutes and seconds, the
m:ss or seconds of resend waits, and unseen ones that end a wait (auto-redirects). It ticks every second
(spec 1 section 9) and reports its end once through `on_complete`, at once if it is mounted after the end.

It counts to `date` (epoch milliseconds or an ISO 8601 time) or, without one, `seconds` from when it is
shown. A new `date` or `run_key` starts it again (they are its React key)."""

from typing import Literal

import reflex as rx
from reflex.event import no_args_event_spec

TICK_MS = 1000


class Countdown(rx.Component):
    library = rx.asset("countdown.jsx", shared=True).importable_path
    lib_dependencies: list[str] = ["react-countdown@2.3.6"]
    tag = "Countdown"

    date: rx.Var[int | str]
    seconds: rx.Var[int]
    display: rx.Var[Literal["dhms", "clock", "seconds", "hidden"]]
    interval_ms: rx.Var[int]
    on_complete: rx.EventHandler[no_args_event_spec]

    @classmethod
    def create(cls, *children, run_key: rx.Var | int | str | None = None, **props) -> rx.Component:
        restart = props.get("date") if run_key is None else run_key
        if restart is not None:
            props.setdefault("key", restart)
        props.setdefault("display", "dhms")
        return super().create(*children, interval_ms=TICK_MS, **props)


countdown = Countdown.create
