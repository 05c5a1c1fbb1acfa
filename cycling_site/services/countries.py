"""Countries from pycountry, keyed by their ISO 3166-1 numeric code (the spec's country id)."""

from functools import cache

import pycountry

from cycling_site.settings import settings


@cache
def countries() -> list[tuple[int, str]]:
    """(id, name) pairs sorted by name."""
    pairs = [(int(c.numeric), getattr(c, "common_name", c.name)) for c in pycountry.countries]
    return sorted(pairs, key=lambda pair: pair[1])


def is_country(country_id: int) -> bool:
    return any(cid == country_id for cid, _name in countries())


def country_name(country_id: int) -> str:
    return next((name for cid, name in countries() if cid == country_id), "")


def default_country_id() -> int:
    """The country a new rider starts with: the DEFAULT_COUNTRY setting (the spec's id 246 belongs to a
    country table we do not have; ISO 246 is Finland)."""
    return int(pycountry.countries.get(alpha_2=settings.default_country).numeric)


def flag_emoji(alpha2: str) -> str:
    """A country's flag as its emoji: the two letters as regional indicator symbols."""
    return "".join(chr(0x1F1E6 + ord(letter) - ord("A")) for letter in alpha2) if len(alpha2) == 2 else ""


def country_alpha2(country_id: int) -> str:
    country = pycountry.countries.get(numeric=f"{country_id:03d}")
    return country.alpha_2 if country else ""
