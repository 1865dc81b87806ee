"""kiln's interactive front ends: the Textual app (`tui.app`) and line mode (`tui.chat`)."""
