"""What states ask of the page itself: move the focus, reset a form (browser-side only, no data)."""

import json

import reflex as rx

# Where the rider is typing already, the focus stays: moving it would send their keys elsewhere.
_FOCUS_SCRIPT = """requestAnimationFrame(() => requestAnimationFrame(() => {
  const typing = document.activeElement?.matches?.("input, select, textarea, [contenteditable]");
  if (!typing) IDS.map((id) => document.getElementById(id)).find(Boolean)?.focus();
}))"""


def focus(*element_ids: str) -> rx.event.EventSpec:
    """Puts the keyboard focus on the first of these elements the page has, e.g. the first field to correct
    after a refused form, unless the rider is already in a field. It waits two frames, so an element the
    same update brings is on the page."""
    return rx.call_script(_FOCUS_SCRIPT.replace("IDS", json.dumps(element_ids)))


def reset_form(form_id: str) -> rx.event.EventSpec:
    return rx.call_script(f"document.getElementById({json.dumps(form_id)})?.reset()")
