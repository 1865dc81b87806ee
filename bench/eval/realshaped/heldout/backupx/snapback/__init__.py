"""snapback: copy what changed since the last backup into a backup folder."""
