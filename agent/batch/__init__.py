"""`kiln batch`: many headless runs at once, locally or on a Ray cluster; results in one folder."""
