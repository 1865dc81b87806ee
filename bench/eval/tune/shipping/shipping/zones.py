"""Which rate zone a destination country falls in."""

from __future__ import annotations

DOMESTIC = "domestic"
EUROPE = "europe"
WORLD_1 = "world-1"
WORLD_2 = "world-2"

HOME_COUNTRY = "GB"

_ZONES: dict[str, str] = {
    "GB": DOMESTIC,
    "IE": EUROPE, "FR": EUROPE, "DE": EUROPE, "NL": EUROPE, "BE": EUROPE,
    "ES": EUROPE, "PT": EUROPE, "IT": EUROPE, "AT": EUROPE, "DK": EUROPE,
    "SE": EUROPE, "FI": EUROPE, "PL": EUROPE, "CZ": EUROPE, "NO": EUROPE,
    "US": WORLD_1, "CA": WORLD_1, "MX": WORLD_1,
    "AU": WORLD_2, "NZ": WORLD_2, "JP": WORLD_2, "SG": WORLD_2, "ZA": WORLD_2,
}


class UnknownCountry(KeyError):
    """We do not ship there (yet)."""


def zone_for(country: str) -> str:
    code = country.strip().upper()
    try:
        return _ZONES[code]
    except KeyError:
        raise UnknownCountry(f"no shipping to {country!r}") from None


def countries_in(zone: str) -> list[str]:
    return sorted(code for code, z in _ZONES.items() if z == zone)
