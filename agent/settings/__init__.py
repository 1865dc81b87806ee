"""Settings: one typed model (defaults < files < env < flags), XDG paths, `kiln config`."""
