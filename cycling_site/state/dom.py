"""What states ask of the page itself: move the focus, reset a form (browser-side only, no data)."""

import json

import reflex as rx


def focus(*element_ids: str) -> rx.event.EventSpec:
    """Puts the keyboard focus on the first of these elements the page has, e.g. the first field to correct
    after a refused form. It waits two frames, so an element the same update brings is on the page."""
    ids = json.dumps(element_ids)
    return rx.call_script(
        "requestAnimationFrame(() => requestAnimationFrame(() => "
        f"{ids}.map((id) => document.getElementById(id)).find(Boolean)?.focus()))"
    )


def reset_form(form_id: str) -> rx.event.EventSpec:
    return rx.call_script(f"document.getElementById({json.dumps(form_id)})?.reset()")
