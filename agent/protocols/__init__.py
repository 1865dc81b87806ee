"""Open protocols: kiln as an ACP agent (`kiln acp`) and as an MCP client."""
