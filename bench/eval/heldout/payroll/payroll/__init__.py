"""Monthly pay for the kinds of staff a small company has."""
