"""The MCP edge: the only package that imports the MCP SDK."""
