"""Screens: the main screen and the modal dialogs pushed over it."""

from pathlib import Path

# Every dialog's CSS_PATH: read when the first dialog opens (tui/screens/dialogs.tcss).
DIALOG_CSS = str(Path(__file__).with_name("dialogs.tcss"))
