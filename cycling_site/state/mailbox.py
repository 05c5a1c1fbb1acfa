"""The demo-mode mailbox: what the outbox holds, so links and codes work with no provider.

It is no part of production: the page is not registered there and every handler answers nothing."""

import re

import reflex as rx

from cycling_site.db import in_session
from cycling_site.services import outbox
from cycling_site.settings import settings

LINK = re.compile(r"https?://\S+")


class MailboxState(rx.State):
    messages: list[dict[str, str | list[str]]] = []
    recipient: str = ""

    async def _load(self) -> None:
        rows = await in_session(outbox.recent_messages, self.recipient or None)
        self.messages = [
            {
                "id": str(row.id),
                "recipient": row.recipient,
                "subject": row.subject,
                "body": row.body,
                "links": LINK.findall(row.body),
                "created_at": row.created_at.strftime("%d/%m/%Y %H:%M UTC"),
            }
            for row in rows
        ]

    @rx.event
    async def load(self) -> None:
        if settings.demo:
            self.recipient = self.router.url.query_parameters.get("to", "")
            await self._load()

    @rx.event
    async def filter(self, form_data: dict) -> None:
        if settings.demo:
            self.recipient = str(form_data.get("to", "")).strip()
            await self._load()
