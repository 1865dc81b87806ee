"""Processes a command left behind, and what the model is told about them and about OOMs.

A command runs in a process group of its own, which is killed when it returns; a process
that left that group (`setsid`, `nohup ... &` with a double fork, a daemon) outlives it and
becomes a child of the container's init. Everything kiln keeps descends either from the
container's main process (the command server) or from a `docker exec` (kiln's own
bookkeeping), or belongs to a running service's session (a job's: sandbox/services.py),
so a process under init that does none of these is a stray, and is killed. The
command server does this itself when a command ends (sandbox/exec_server.py); SWEEP_SCRIPT
is the same rule as a shell script, for containers where the server cannot run.
"""

from __future__ import annotations

from sandbox.quota import human_bytes

# Prints the pids it killed. Each round stops the strays it has not seen yet, so none can
# fork another between the look and the kill; then all of them are killed at once.
SWEEP_SCRIPT = r"""
table() {
  for f in /proc/[0-9]*/stat; do
    read -r line < "$f" && printf '%s\n' "$line"
  done
}
find_strays() {
  table 2>/dev/null | awk '{
    pid = $1; rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
    st[pid] = f[1]; pp[pid] = f[2]; t[pid] = f[20]
  }
  END {
    main = ""
    for (p in pp)
      if (pp[p] == 1 && (main == "" || t[p] + 0 < t[main] + 0 || (t[p] == t[main] && p + 0 < main + 0)))
        main = p
    for (p in pp) {
      if (p == 1 || st[p] == "Z" || st[p] == "X") continue
      top = p; q = pp[p]; n = 0
      while (q != 0 && q != 1 && (q in pp) && n < 100000) { top = q; q = pp[q]; n++ }
      if (q == 1 && top != main) print p
    }
  }'
}
stopped=""
i=0
while [ "$i" -lt 50 ]; do
  new=""
  for p in $(find_strays); do
    case " $stopped " in *" $p "*) ;; *) new="$new $p" ;; esac
  done
  [ -z "$new" ] && break
  kill -STOP $new 2>/dev/null
  stopped="$stopped$new"
  i=$((i + 1))
done
[ -z "$stopped" ] || kill -KILL $stopped 2>/dev/null
echo $stopped
"""


def strays_sentence(count: int) -> str:
    what = "1 process" if count == 1 else f"{count} processes"
    return (
        f"kiln killed {what} the command left running in the background (outside its "
        "process group: setsid, nohup, a double fork); nothing a command starts may outlive "
        "it: start a server or a watcher as a job instead, in the foreground."
    )


def oom_sentence(memory: str, exit_code: int) -> str:
    who = "the command" if exit_code == 137 else "a process the command started"
    return (
        f"The command ran out of memory: the sandbox may use {memory} ([sandbox] memory) and "
        f"the kernel killed {who}; use less memory at once (smaller inputs, fewer parallel "
        "workers), as the limit cannot be raised from inside."
    )


def idle_disk_sentence(used: int, limit: str, count: int) -> str:
    what = "1 process" if count == 1 else f"{count} processes"
    return (
        f"Between commands, processes left running in the background grew the workspace to "
        f"{human_bytes(used)}, past its disk limit of {limit} ([sandbox] disk_limit), so kiln "
        f"killed {what}; delete what you do not need."
    )
