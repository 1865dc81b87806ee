"""A small lending library: the catalogue, loans and late fines."""
