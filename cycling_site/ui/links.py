"""Links drawn as buttons: one <a> with the button's look, so one element, one tab stop and one name
(a button inside a link was two tab stops and an invalid nesting)."""

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink


def link_button(
    *children: rx.Component | str | rx.Var, href: str | rx.Var, is_external: bool = False, **props
):
    """A Radix button rendered as the link itself; external links open in a new tab."""
    if is_external:
        link = rx.el.a(*children, href=href, target="_blank", rel="noopener noreferrer")
    else:
        link = ReactRouterLink.create(*children, to=href)
    return rx.button(link, as_child=True, **props)
