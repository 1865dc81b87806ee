"""Turn the bank's fixed-width statement exports into CSV for the accounts spreadsheet."""
