"""The sequence editor kiln gives `git rebase -i`: rewrites the todo list's line for one
commit (drop, fixup) and may add an `exec` after it. Run as
`python -m agent.vcs.rebase_todo ACTION COMMIT [EXEC] TODO-FILE` by git itself."""

from __future__ import annotations

import sys
from pathlib import Path


def edit(todo: str, action: str, commit: str, then: str = "") -> str:
    out = []
    for line in todo.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "pick" and commit.startswith(words[1]):
            out.append(f"{action} {' '.join(words[1:])}")
            if then:
                out.append(f"exec {then}")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    *rest, todo_file = argv
    action, commit, *then = rest
    path = Path(todo_file)
    path.write_text(edit(path.read_text(), action, commit, " ".join(then)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
