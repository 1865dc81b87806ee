"""Invoices: lines, VAT, totals and a plain-text rendering."""
