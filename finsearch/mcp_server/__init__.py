"""The MCP server: FinSearch's questions, reports, stored records and data sources as tools and
resources for any Model Context Protocol client — an edge over `finsearch.service` and the
pipeline, with no logic of its own (`python -m finsearch mcp`, over stdio or streamable HTTP).

Named `mcp_server`, not `mcp`, so that `import mcp` always means the SDK.
"""
