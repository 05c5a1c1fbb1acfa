"""Tabs chosen by URL hash (dashboard, profile): writing the chosen tab back to the address bar."""

import reflex as rx


def show_hash(tab: str):
    """Replaces the hash without a navigation, so the link opens the same tab again."""
    return rx.call_script(f"history.replaceState(history.state, '', '#{tab}')")
