"""What every page does as it opens, before its own loads."""

import reflex as rx

from cycling_site.state.contact import SubscribeState
from cycling_site.state.content import ChromeState
from cycling_site.state.session import SessionState


class PageState(rx.State):
    @rx.event
    async def load(self):
        """The route guard, the header's menus and the footer form's reset, as one event: as three they cost
        three rounds of event processing and three updates on every page load."""
        redirect = await (await self.get_state(SessionState)).guard()
        await (await self.get_state(ChromeState)).load()
        (await self.get_state(SubscribeState)).clear_messages()
        return redirect
