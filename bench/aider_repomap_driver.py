"""Build Aider's repo map of FILES under ROOT; run by the bench-only venv's python.

`python aider_repomap_driver.py ROOT FILELIST TOKENS` prints one JSON line: the seconds
`get_repo_map` took (imports excluded), the map's size and the peak RSS. Token counting is
len/4, what kiln uses: Aider's own counter needs a tokenizer download, and counting is not
what is measured here. Only RepoMap is imported, not Aider's models or terminal I/O.
"""

import json
import resource
import sys
import time

from aider.repomap import RepoMap


class QuietIO:
    def tool_output(self, *args, **kwargs):
        pass

    tool_error = tool_warning = tool_output

    def read_text(self, filename, silent=False):
        try:
            with open(filename, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeError):
            return None


class CharsModel:
    def token_count(self, text):
        return len(text) / 4


root, file_list, tokens = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(file_list) as listing:
    files = [f"{root}/{line}" for line in listing.read().splitlines() if line]
started = time.perf_counter()
repo_map = RepoMap(
    map_tokens=tokens, root=root, main_model=CharsModel(), io=QuietIO(), refresh="always"
)
text = repo_map.get_repo_map([], files) or ""
seconds = time.perf_counter() - started
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "chars": len(text), "peak_kb": peak_kb}))
