"""Money and tokens: the usage meter and budget checks (the price table lands here)."""
