"""dusage: a small `du` replacement that groups sizes by top-level folder."""
