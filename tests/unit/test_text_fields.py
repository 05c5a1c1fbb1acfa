"""Riders type 50-300 ms away from the server: a text field that takes the server's echo of each key as its
value loses keys (the echo of "1" lands after "12" was typed). Every text field of every page keeps its own
value in the browser; the server hears it (ui.forms.live_input) and never sets it while it is typed."""

from collections.abc import Iterator

from reflex.components.component import Component
from reflex.vars.base import Var

from cycling_site.cycling_site import app

TEXT_FIELDS = {"input", "textarea", "TextField.Root", "TextArea"}


def _components(component: Component, seen: set[int]) -> Iterator[Component]:
    """The component and everything below it, the branches of conditions included."""
    if id(component) in seen:
        return
    seen.add(id(component))
    yield component
    for child in [*component.children, *vars(component).values()]:
        if isinstance(child, Component):
            yield from _components(child, seen)


def _text_fields() -> Iterator[tuple[str, Component]]:
    for route, page in app._unevaluated_pages.items():
        root = page.component() if callable(page.component) else page.component
        for component in _components(root, set()):
            if getattr(component, "tag", None) in TEXT_FIELDS:
                yield route, component


def _state_value(field: Component) -> bool:
    value = getattr(field, "value", None)
    data = value._get_all_var_data() if isinstance(value, Var) else None
    return bool(data and data.state)


def test_no_text_field_takes_its_value_from_the_server_as_it_is_typed():
    fields = list(_text_fields())
    echoed = [
        f"{route}: #{field.id}"
        for route, field in fields
        if _state_value(field) and "on_change" in field.event_triggers
    ]
    assert len(fields) > 100
    assert echoed == []
