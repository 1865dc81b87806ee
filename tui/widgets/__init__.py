"""Widgets of the main screen; each reacts to events handed to it by the screen."""
