"""blogkit: the bits of our static blog generator that deal with post metadata."""
