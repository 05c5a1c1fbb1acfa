"""The country helpers: the phone country list and the GET countries order."""

import dataclasses

from cycling_site.services import countries


def test_the_country_helper_lists_countries_with_dial_codes_and_flags():
    found = countries.phone_countries()
    uae = next(country for country in found if country.code == "AE")
    assert (uae.dial_code, uae.emoji, uae.name) == ("971", "🇦🇪", "United Arab Emirates")
    assert [country.name for country in found] == sorted(country.name for country in found)
    assert len(found) > 200


def test_the_dial_code_list_starts_with_the_default_country(monkeypatch):
    monkeypatch.setattr(countries, "settings", dataclasses.replace(countries.settings, default_country="GB"))
    listed = countries.dial_code_list()
    assert listed[0].code == "GB"
    assert len(listed) == len(countries.phone_countries())
