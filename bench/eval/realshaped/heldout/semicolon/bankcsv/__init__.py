"""bankcsv: read the CSV statements people download from their bank and sum them up."""
