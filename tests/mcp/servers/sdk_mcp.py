"""An MCP server built with the `mcp` SDK: `python sdk_mcp.py` (stdio) or
`python sdk_mcp.py http PORT` (streamable HTTP on 127.0.0.1)."""

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("units")


@server.tool()
def to_celsius(fahrenheit: float) -> str:
    """Convert a temperature from Fahrenheit to Celsius."""
    return f"{(fahrenheit - 32) * 5 / 9:.1f} C"


@server.tool()
def kiln_cone(cone: str) -> str:
    """The temperature a pyrometric cone stands for."""
    return {"06": "999 C", "6": "1222 C"}.get(cone, "unknown cone")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
