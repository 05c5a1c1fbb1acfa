"""The tracks page's data: the demo courses, in order, each with its own local image."""

import re

from cycling_site.models import Track
from cycling_site.services.tracks import list_tracks, seed_tracks
from cycling_site.settings import PROJECT_ROOT


def test_seed_writes_the_demo_tracks_once(session):
    assert seed_tracks(session) == 6
    assert seed_tracks(session) == 0
    tracks = list_tracks(session)
    assert [track.title for track in tracks] == [
        "Jebel Hafeet",
        "Al Qudra Loop",
        "Hatta Dam Climb",
        "Mleiha Rollers",
        "Corniche Flat",
        "Meydan Criterium",
    ]
    assert all(re.match(r"^[\d.]+ km", track.description) for track in tracks)


def test_every_demo_track_has_its_own_image_at_the_spec_size(session):
    seed_tracks(session)
    images = [track.image for track in list_tracks(session)]
    assert len(set(images)) == len(images)
    for image in images:
        svg = (PROJECT_ROOT / "assets" / image.lstrip("/")).read_text()
        assert 'viewBox="0 0 1140 625"' in svg
        assert "http://" not in svg.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in svg


def test_tracks_are_listed_by_position(session):
    session.add_all(
        [
            Track(title="Third", position=3),
            Track(title="First", position=1),
            Track(title="Second", position=2),
        ]
    )
    session.commit()
    assert [track.title for track in list_tracks(session)] == ["First", "Second", "Third"]


def test_no_tracks_is_an_empty_list(session):
    assert list_tracks(session) == []
