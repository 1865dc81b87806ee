"""Importing contacts from the CSV files people export from their phones and mail apps."""
