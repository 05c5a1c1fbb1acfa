"""The tracks page (/routes): the game's courses, in the order race control gives them."""

from sqlmodel import Session, select

from cycling_site.models import Track

# Demo courses: virtual versions of UAE roads. Images are local SVGs in assets/tracks/ (1140x625).
DEMO_TRACKS = (
    (
        "Jebel Hafeet",
        "11.7 km · 950 m of climbing. The UAE's great climb: a wide, smooth road that winds up the "
        "mountain through 60 bends at a steady 8% with no place to recover. Pace it like a time trial; the "
        "last kilometre past the hotel is the steepest.",
        "/tracks/jebel-hafeet.svg",
    ),
    (
        "Al Qudra Loop",
        "50 km · 160 m of climbing. The desert cycle track south of Dubai: long straights between the "
        "dunes, gentle drags and a crosswind that splits the bunch. Stay sheltered and save something for "
        "the final rise to the finish.",
        "/tracks/al-qudra-loop.svg",
    ),
    (
        "Hatta Dam Climb",
        "19.4 km · 520 m of climbing. Rolling road through the Hajar foothills, then a short, brutal ramp "
        "of up to 14% to the dam wall. Position matters at the foot of the final climb.",
        "/tracks/hatta-dam-climb.svg",
    ),
    (
        "Mleiha Rollers",
        "32 km · 380 m of climbing. A punchy loop past Fossil Rock: one short roller after another, each "
        "under a minute. Made for riders who can repeat hard efforts; gaps open on every crest.",
        "/tracks/mleiha-rollers.svg",
    ),
    (
        "Corniche Flat",
        "24 km · 35 m of climbing. Out and back along the Abu Dhabi waterfront, with one U-turn at each "
        "end. Fast and flat: expect a bunch sprint unless a break works well together.",
        "/tracks/corniche-flat.svg",
    ),
    (
        "Meydan Criterium",
        "2.4 km lap · 12 m of climbing per lap. A technical circuit around the racecourse grandstand with "
        "four right-angle corners, raced over 15 laps. Accelerations out of every corner; sprint from the "
        "front.",
        "/tracks/meydan-criterium.svg",
    ),
)


def list_tracks(session: Session) -> list[Track]:
    return list(session.exec(select(Track).order_by(Track.position, Track.id)))


def seed_tracks(session: Session) -> int:
    """Writes the demo tracks to an empty table; answers how many it wrote."""
    if session.exec(select(Track.id)).first() is not None:
        return 0
    session.add_all(
        Track(title=title, description=description, image=image, position=position)
        for position, (title, description, image) in enumerate(DEMO_TRACKS, start=1)
    )
    session.commit()
    return len(DEMO_TRACKS)
