"""Countries from pycountry, keyed by their ISO 3166-1 numeric code (the spec's country id), and the
phone country helper with dial codes from phonenumbers."""

import logging
from dataclasses import dataclass
from functools import cache

import phonenumbers
import pycountry

from cycling_site.settings import settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PhoneCountry:
    """The country helper of spec 3 section 3: code, dialCode, emoji, name."""

    code: str
    dial_code: str
    emoji: str
    name: str


# Spec 3 section 8: when the list cannot be built, these three are offered.
FALLBACK_COUNTRIES = (
    PhoneCountry("AE", "971", "\U0001f1e6\U0001f1ea", "United Arab Emirates"),
    PhoneCountry("US", "1", "\U0001f1fa\U0001f1f8", "United States"),
    PhoneCountry("GB", "44", "\U0001f1ec\U0001f1e7", "United Kingdom"),
)


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


@cache
def phone_countries() -> list[PhoneCountry]:
    """Every country the phone library can check, by name."""
    found = []
    for region in phonenumbers.SUPPORTED_REGIONS:
        country = pycountry.countries.get(alpha_2=region)
        if country is None:
            continue
        name = getattr(country, "common_name", country.name)
        dial_code = str(phonenumbers.country_code_for_region(region))
        found.append(PhoneCountry(region, dial_code, flag_emoji(region), name))
    return sorted(found, key=lambda country: country.name)


def dial_code_list() -> list[PhoneCountry]:
    """GET countries: the default country first, then the rest by name; the three-country fallback when
    the list cannot be built (spec 3 section 8)."""
    try:
        found = phone_countries()
    except (LookupError, ValueError, OSError):
        log.exception("The country list could not be built; offering the fallback")
        return list(FALLBACK_COUNTRIES)
    default = [country for country in found if country.code == settings.default_country]
    return default + [country for country in found if country.code != settings.default_country]
