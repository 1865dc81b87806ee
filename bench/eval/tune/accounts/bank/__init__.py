"""A toy bank: accounts of several kinds, transfers between them."""
