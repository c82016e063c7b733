"""The `casetrack` command line: the same service calls the MCP tools make."""
