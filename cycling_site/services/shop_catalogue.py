"""The in-game shop's catalogue (spec 1 sections 2-3): garage items and bundles, static and priced here.

Prices are the server's, never a request's: items cost coins, coin bundles cost gems, gem bundles cost
AED (in fils). Types 0 and 1 (frameset, wheel) are the bike parts with AERO and WEIGHT figures (0-100);
the avatar types exist but are not offered to riders.
"""

from dataclasses import dataclass
from enum import IntEnum


class ItemType(IntEnum):
    frameset = 0
    wheel = 1
    jersey = 2
    head_gear = 3
    shoes = 4
    socks = 5
    gloves = 6
    eye_wear = 7
    head = 8
    hair = 9
    facial_hair = 10


BIKE_TYPES = (ItemType.frameset, ItemType.wheel)
AVATAR_TYPES = (ItemType.head, ItemType.hair, ItemType.facial_hair)
# The shop's tabs and their sub-tabs, in order (spec 1: Bike, APPAREL; the Avatar section is hidden).
TABS = (
    ("Bike", ((ItemType.frameset, "Frameset"), (ItemType.wheel, "Wheel"))),
    (
        "APPAREL",
        (
            (ItemType.jersey, "Jersey"),
            (ItemType.head_gear, "Head Gear"),
            (ItemType.shoes, "Shoes"),
            (ItemType.socks, "Socks"),
            (ItemType.gloves, "Gloves"),
            (ItemType.eye_wear, "Eye wear"),
        ),
    ),
)


class Unlocking:
    """How an item becomes available: from the start, from a level, or as a custom avatar part."""

    base = "base"
    level = "level"
    custom_avatar = "custom_avatar"


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    type: ItemType
    description: str
    coins: int
    unlocking: str = Unlocking.base
    level: int = 0
    aerodynamics: int | None = None
    weight: int | None = None
    bike_type: str = ""

    @property
    def thumbnail(self) -> str:
        return f"/shop/{self.id}.svg"

    @property
    def offered(self) -> bool:
        return self.type not in AVATAR_TYPES


def _bike(id_: str, name: str, description: str, coins: int, aero: int, weight: int, **extra) -> Item:
    return Item(id_, name, ItemType.frameset, description, coins, aerodynamics=aero, weight=weight, **extra)


def _wheel(id_: str, name: str, description: str, coins: int, aero: int, weight: int, **extra) -> Item:
    return Item(id_, name, ItemType.wheel, description, coins, aerodynamics=aero, weight=weight, **extra)


ITEMS: tuple[Item, ...] = (
    _bike(
        "frame-oasis-endurance",
        "Oasis Endurance",
        "A comfortable all-day frame: steady on long group rides and forgiving on rough virtual roads.",
        800,
        aero=55,
        weight=65,
        bike_type="road",
    ),
    _bike(
        "frame-falcon-aero",
        "Falcon Aero R1",
        "Deep tube shapes that cheat the wind on flat and rolling courses, for riders who race at the front.",
        2400,
        aero=82,
        weight=70,
        bike_type="road",
    ),
    _bike(
        "frame-dune-climber",
        "Dune Climber SL",
        "The lightest frame in the garage: made for long climbs like the AlUla ascents.",
        2600,
        aero=60,
        weight=92,
        bike_type="road",
    ),
    _bike(
        "frame-mirage-tt",
        "Mirage TT",
        "A time-trial frame for races against the clock. Unlocks at level 25.",
        5200,
        aero=95,
        weight=55,
        bike_type="time-trial",
        unlocking=Unlocking.level,
        level=25,
    ),
    _wheel(
        "wheel-summit-25",
        "Summit 25",
        "Shallow, light rims that spin up quickly on steep gradients.",
        900,
        aero=50,
        weight=95,
    ),
    _wheel(
        "wheel-sandstorm-45",
        "Sandstorm 45",
        "Mid-depth carbon wheels: the all-rounder choice for most race courses.",
        1800,
        aero=70,
        weight=75,
    ),
    _wheel(
        "wheel-dhow-disc",
        "Dhow Disc",
        "A full disc rear wheel for flat time trials. Unlocks at level 20.",
        4200,
        aero=96,
        weight=40,
        unlocking=Unlocking.level,
        level=20,
    ),
    Item("jersey-desert-sunset", "Desert Sunset", ItemType.jersey, "Orange with a sand-gold band.", 600),
    Item("jersey-gulf-blue", "Gulf Blue", ItemType.jersey, "Deep blue with a white chest band.", 600),
    Item("jersey-night-rider", "Night Rider", ItemType.jersey, "Black with an orange band.", 900),
    Item("jersey-oasis-green", "Oasis Green", ItemType.jersey, "Green with a white chest band.", 600),
    Item("helmet-vented-road", "Vented Road", ItemType.head_gear, "A light, well-vented road helmet.", 500),
    Item(
        "helmet-aero-tt",
        "Aero TT",
        ItemType.head_gear,
        "A long-tail aero helmet for time trials. Unlocks at level 12.",
        1500,
        unlocking=Unlocking.level,
        level=12,
    ),
    Item("shoes-desert-tour", "Desert Tour", ItemType.shoes, "Sand-coloured touring shoes.", 450),
    Item("shoes-carbon-sprint", "Carbon Sprint", ItemType.shoes, "Stiff carbon soles for sprints.", 1100),
    Item("socks-striped", "Striped", ItemType.socks, "White socks with orange stripes.", 150),
    Item("socks-falcon", "Falcon", ItemType.socks, "Black socks with blue stripes.", 150),
    Item("gloves-summer-mitts", "Summer Mitts", ItemType.gloves, "Fingerless mitts for hot days.", 250),
    Item("gloves-aero", "Aero Gloves", ItemType.gloves, "Smooth full-finger race gloves.", 400),
    Item("eyewear-clear", "Clear Lens", ItemType.eye_wear, "Clear lenses for indoor rides.", 300),
    Item("eyewear-mirage", "Mirage Shades", ItemType.eye_wear, "Orange mirrored race shades.", 700),
    Item("avatar-head-classic", "Classic", ItemType.head, "A head.", 0, unlocking=Unlocking.custom_avatar),
    Item("avatar-hair-short", "Short", ItemType.hair, "Short hair.", 0, unlocking=Unlocking.custom_avatar),
    Item(
        "avatar-beard-trim",
        "Trimmed",
        ItemType.facial_hair,
        "A trimmed beard.",
        0,
        unlocking=Unlocking.custom_avatar,
    ),
)
ITEMS_BY_ID = {item.id: item for item in ITEMS}


@dataclass(frozen=True)
class Bundle:
    """Identifier, Reward and Price (spec 1): coins for gems, or gems for AED (in fils)."""

    id: str
    reward: int
    price: int


COIN_BUNDLES = (
    Bundle("coins-1000", 1000, 50),
    Bundle("coins-5500", 5500, 250),
    Bundle("coins-12000", 12000, 500),
)
GEM_BUNDLES = (Bundle("gems-100", 100, 1900), Bundle("gems-550", 550, 9900), Bundle("gems-1200", 1200, 18900))
COIN_BUNDLES_BY_ID = {bundle.id: bundle for bundle in COIN_BUNDLES}
GEM_BUNDLES_BY_ID = {bundle.id: bundle for bundle in GEM_BUNDLES}
