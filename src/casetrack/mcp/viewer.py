"""The MCP App viewer (io.modelcontextprotocol/ui): one `ui://` HTML resource that shows a tool's cited
passages on their pages. It is linked from the tools that cite pages through `_meta.ui.resourceUri`;
a client without Apps support ignores the link and keeps the text results. The page is self-contained
(inline script and style, no font, image or script from anywhere) and draws each page by calling
get_page_image through the host."""

from __future__ import annotations

from importlib import resources

from mcp.server.apps import Apps

VIEWER_URI = "ui://casetrack/viewer"
# The tools whose results the viewer shows (their structured results cite pages).
VIEWER_TOOLS = frozenset({"search_case", "get_chunk", "get_source_context", "browse_pages", "verify_draft"})


def viewer_html() -> str:
    return resources.files("casetrack.mcp").joinpath("viewer.html").read_text(encoding="utf-8")


def viewer_meta(tool_name: str) -> dict[str, object] | None:
    """The `_meta` linking a tool to the viewer, or None for a tool it does not show."""
    return {"ui": {"resourceUri": VIEWER_URI}} if tool_name in VIEWER_TOOLS else None


def viewer_extension() -> Apps:
    """The Apps extension serving the viewer (advertises the capability, lists and reads the resource)."""
    apps = Apps()
    apps.add_html_resource(VIEWER_URI, viewer_html(), name="casetrack-viewer", title="CaseTrack page viewer",
                           description="Shows each cited passage highlighted on its page, with the pages around it.",
                           prefers_border=True)
    return apps
