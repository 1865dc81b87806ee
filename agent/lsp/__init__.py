"""Language servers in the session's sandbox, and what an edit broke by their word."""
