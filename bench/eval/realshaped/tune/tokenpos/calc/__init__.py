"""calc: the little expression language behind our spreadsheet-ish config files.

    rate = 0.2
    net = gross * (1 - rate)   # comments run to the end of the line
"""
