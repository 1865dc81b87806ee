"""`kiln acp`: kiln as an ACP agent, a front end beside the TUI and `kiln run`."""
