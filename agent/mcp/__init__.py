"""The MCP client: a part of the session, its servers' tools beside kiln's own."""
