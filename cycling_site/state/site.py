"""The ruleset catch-route's guard."""

import reflex as rx

from cycling_site.routes import RULESET_PATTERN


class SiteState(rx.State):
    @rx.event
    def check_ruleset(self):
        """/{product}-ruleset shares a one-segment route: any other path there goes to /."""
        if not RULESET_PATTERN.match(self.router.url.path):
            return rx.redirect("/", replace=True)
        return None
