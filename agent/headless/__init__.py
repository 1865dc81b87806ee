"""Headless `kiln run`: one task, no person, a result object and an exit code."""
