"""shelf: the JSON API behind our office library's web page."""
