"""The tracks page (/routes)."""

import reflex as rx

from cycling_site.db import in_session
from cycling_site.services import tracks


class TracksState(rx.State):
    tracks: list[dict[str, str]] = []
    loading: bool = True

    @rx.event
    async def load(self) -> None:
        rows = await in_session(tracks.list_tracks)
        self.tracks = [
            {"id": str(row.id), "title": row.title, "description": row.description, "image": row.image}
            for row in rows
        ]
        self.loading = False
