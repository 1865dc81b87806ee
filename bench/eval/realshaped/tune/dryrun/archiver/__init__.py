"""archiver: nightly spend report per category, keeping the last N days of reports."""
