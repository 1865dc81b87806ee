"""What people bring from other coding agents: custom slash commands (Markdown prompts in
`.kiln/commands/`, `.claude/commands/` and their user folders) and skills (folders with a
`SKILL.md`, the open Agent Skills format). Both are text for the model, never code that runs
on the host, so a repository's own need no trust; each says where it came from."""
