"""Git on the person's side: applying an approved diff (commit, undo and review land here)."""
