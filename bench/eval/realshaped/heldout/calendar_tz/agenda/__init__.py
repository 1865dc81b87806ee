"""agenda: day and week views of a shared calendar. Events are stored in UTC; every view
is shown in the reader's own timezone."""
