"""Reflex sends the browser every var a handler sets, changed or not. Handlers that run on every page load
set only what changed, so a page opened again sends only what is new."""

import reflex as rx


def put(state: rx.State, **values: object) -> None:
    for name, value in values.items():
        if getattr(state, name) != value:
            setattr(state, name, value)
