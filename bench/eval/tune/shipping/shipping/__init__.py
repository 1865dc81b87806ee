"""Parcel shipping quotes: zones, parcels and the rate card.

The public names are re-exported here so callers write `from shipping import quote`.
"""

from shipping.parcel import Parcel, ParcelError
from shipping.rates import RATE_CARD, Quote, quote
from shipping.zones import UnknownCountry, zone_for

__all__ = ["Parcel", "ParcelError", "Quote", "RATE_CARD", "UnknownCountry", "quote", "zone_for"]
