"""Model backends. `base.py` holds the protocol and the neutral message types."""

import sys

# httpx imports its command-line client (and with it rich, pygments and click) whenever
# those happen to be installed, as Textual installs them: 40 ms on every `kiln run` for
# a tool kiln never calls. A None entry makes that import fail, and httpx falls back to
# a stub `httpx.main`; the library itself is unaffected.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
