"""What a shell line would run, found by parsing it (tree-sitter-bash): every command of its
lists, pipelines, compound statements and substitutions, the scripts it hands to `sh -c`
and `eval`, each seen through the wrappers that only run another command (`timeout`,
`env`, `sudo`, `xargs`...). `agent/permissions.py` matches its `run:` rules on these."""
