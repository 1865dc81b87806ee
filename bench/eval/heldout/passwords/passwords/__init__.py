"""The password policy: at least 12 characters, three of the four character classes,
not a common password, and not containing the user name."""
