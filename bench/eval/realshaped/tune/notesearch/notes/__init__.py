"""notes: search a folder of plain-text and markdown notes."""
