"""The tracks page (/routes)."""

import reflex as rx

from cycling_site.db import get_session
from cycling_site.services import tracks


class TracksState(rx.State):
    tracks: list[dict[str, str]] = []
    loading: bool = True

    @rx.event
    def load(self) -> None:
        with get_session() as session:
            rows = tracks.list_tracks(session)
        self.tracks = [
            {"id": str(row.id), "title": row.title, "description": row.description, "image": row.image}
            for row in rows
        ]
        self.loading = False
