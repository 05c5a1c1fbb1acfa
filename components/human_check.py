"""The human check: the self-hosted ALTCHA proof-of-work widget."""

import reflex as rx
from reflex.event import no_args_event_spec, passthrough_event_spec


class HumanCheck(rx.Component):
    library = rx.asset("human_check.jsx", shared=True).importable_path
    tag = "HumanCheck"
    lib_dependencies: list[str] = ["altcha@2.3.0"]

    challenge_url: rx.Var[str]
    reset_key: rx.Var[int]
    # False while a page load brings the tab's state: a reset key that arrives then is the tab's last one,
    # not a new reset.
    hydrated: rx.Var[bool]
    label: rx.Var[str]
    on_verified: rx.EventHandler[passthrough_event_spec(str)]
    on_cleared: rx.EventHandler[no_args_event_spec]


human_check = HumanCheck.create
