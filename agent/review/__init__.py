"""`kiln review`: a change (a commit, a range, the index, the working tree) read by the model
chunk by chunk, reported through two tools, each finding checked again, then printed as
text, markdown, JSON, SARIF or GitHub annotations. No Textual here; the TUI shows it."""
