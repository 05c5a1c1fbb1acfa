"""Guards of the frame: the ruleset catch-route and pages reserved for demo mode."""

import reflex as rx

from cycling_site.routes import RULESET_PATTERN
from cycling_site.settings import settings


class SiteState(rx.State):
    @rx.event
    def check_ruleset(self):
        """/{product}-ruleset shares a one-segment route: any other path there goes to /."""
        if not RULESET_PATTERN.match(self.router.url.path):
            return rx.redirect("/", replace=True)
        return None

    @rx.event
    def demo_only(self):
        if not settings.demo:
            return rx.redirect("/", replace=True)
        return None
