"""The session store: SQLite of every event, request and stop; `kiln sessions`."""
