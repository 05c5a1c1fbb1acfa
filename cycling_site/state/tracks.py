"""The tracks page (/routes)."""

import reflex as rx

from cycling_site.db import get_session, off_loop
from cycling_site.models import Track
from cycling_site.services import tracks


def _all_tracks() -> list[Track]:
    with get_session() as session:
        return tracks.list_tracks(session)


class TracksState(rx.State):
    tracks: list[dict[str, str]] = []
    loading: bool = True

    @rx.event
    async def load(self) -> None:
        rows = await off_loop(_all_tracks)
        self.tracks = [
            {"id": str(row.id), "title": row.title, "description": row.description, "image": row.image}
            for row in rows
        ]
        self.loading = False
