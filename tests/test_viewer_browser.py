"""The MCP App viewer in a real headless Chromium, inside a small host page that speaks the Apps protocol
(ui/initialize, ui/notifications/tool-result, tools/call proxied to a real CaseTrack server over stdio):
a search result opens on its page with the passage highlighted, next/previous turn pages, and the page
logs no console error and sends no request anywhere. Screenshots are kept in test-artifacts/viewer/."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from tests.mcp_helpers import call_ok, mcp_session
from tests.page_image.documents import lease_pdf_bytes
from tests.page_image.pixels import highlighted_rows

pytestmark = pytest.mark.anyio

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "viewer"
# Offline and quiet: no sandbox (root in CI), no GPU, no QUIC, and none of Chromium's own calls home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# The host: the viewer in a sandboxed iframe (scripts only, an opaque origin), answering its requests.
HOST_PAGE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="app" sandbox="allow-scripts" style="width:900px;height:1300px;border:0"></iframe>
<script>
window.traffic = [];
const frame = document.getElementById("app");
const reply = (id, result) => frame.contentWindow.postMessage({jsonrpc: "2.0", id, result}, "*");
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  window.traffic.push(m.method || ("response " + m.id));
  if (m.method === "ui/initialize") {
    reply(m.id, {protocolVersion: m.params.protocolVersion, hostInfo: {name: "test-host", version: "1"},
                 hostCapabilities: {serverTools: {}}, hostContext: {theme: "light", displayMode: "inline"}});
  } else if (m.method === "ui/notifications/initialized") {
    frame.contentWindow.postMessage({jsonrpc: "2.0", method: "ui/notifications/tool-result",
                                     params: toolResult}, "*");
  } else if (m.method === "tools/call") {
    reply(m.id, JSON.parse(await window.casetrackCall(m.params.name, JSON.stringify(m.params.arguments))));
  } else if (m.id !== undefined) {
    reply(m.id, {});
  }
});
let toolResult = null;
// As hosts do: the app under a Content-Security-Policy that allows its inline code and data: images only.
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
window.start = (viewerHtml, result) => {
  toolResult = result;
  frame.srcdoc = viewerHtml.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);
};
window.sendResult = (result) => frame.contentWindow.postMessage(
  {jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result}, "*");
</script></body></html>"""


def _highlight_rows(png: bytes) -> tuple[int, int]:
    """A screenshot's height and how many of its pixel rows hold highlighter yellow (as the browser scaled it)."""
    return Image.open(io.BytesIO(png)).height, len(highlighted_rows(png, tolerance=16))


@pytest.mark.slow  # a server, an ingest and a browser: CI runs it with -m slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs it)")
async def test_the_viewer_shows_a_hit_highlighted_and_turns_pages_offline(data_dir: Path, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    lease = tmp_path / "lease.pdf"
    lease.write_bytes(lease_pdf_bytes())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Browser")
        await call_ok(client, "ingest_document", file_path=str(lease), wait_seconds=300)
        found = await call_ok(client, "search_case", query="tenant indemnify landlord flood damage", top_k=3)
        assert found.structured_content["results"][0]["source"]["page"] == 2
        [viewer] = (await client.read_resource("ui://casetrack/viewer")).contents
        checked = await call_ok(client, "verify_draft", text=(
            'The lease provides that "the Tenant shall indemnify the Landlord against flood damage." '
            "(lease.pdf, p. 2). It adds that \"the Tenant shall indemnify the Landlord against fire damage.\" "
            "(lease.pdf, p. 2)."))
        assert [q["status"] for q in checked.structured_content["quotes"]] == ["verified", "differs"]

        async def casetrack_call(name: str, arguments: str) -> str:
            answer = await client.call_tool(name, json.loads(arguments))
            return json.dumps(answer.model_dump(by_alias=True, mode="json", exclude_none=True))

        problems: list[str] = []
        requests: list[str] = []
        with tempfile.TemporaryDirectory() as profile:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                    viewport={"width": 960, "height": 1400})
                try:
                    page = await browser.new_page()
                    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
                    page.on("pageerror", lambda e: problems.append(str(e)))
                    page.on("request", lambda r: requests.append(r.url))
                    await page.route("**/*", lambda route: route.abort())  # nothing may leave; aborted if tried
                    await page.expose_function("casetrackCall", casetrack_call)
                    await page.set_content(HOST_PAGE)
                    await page.evaluate("([html, result]) => window.start(html, result)",
                                        [viewer.text, found.model_dump(by_alias=True, mode="json")])  # type: ignore[union-attr]
                    app = page.frame_locator("#app")
                    shown = app.locator("#page")
                    await shown.wait_for(state="visible", timeout=60_000)
                    assert await app.locator("#pageno").inner_text() == "p. 2 of 3"
                    assert "lease.pdf, p. 2" in await app.locator("#citation").inner_text()
                    first = await page.locator("#app").screenshot(path=str(ARTIFACTS / "hit-page-2.png"))
                    height, marked = _highlight_rows(first)
                    assert 0 < marked < height * 0.5, (marked, height)

                    await app.locator("#copy").click()  # no clipboard permission in the sandbox: the fallback
                    await app.locator("#copy", has_text="Copied").wait_for(timeout=10_000)
                    await app.locator("#zoomin").click()
                    assert (await app.locator("#page").get_attribute("style") or "").startswith("width: 125%")
                    await app.locator("#zoomfit").click()

                    await app.locator("#next").click()
                    await app.locator("#pageno", has_text="p. 3 of 3").wait_for(timeout=60_000)
                    assert await app.locator("#next").is_disabled()
                    assert await app.locator("#citation").inner_text() == "lease.pdf, p. 3"
                    after = await page.locator("#app").screenshot(path=str(ARTIFACTS / "next-page-3.png"))
                    assert _highlight_rows(after)[1] == 0  # another page: nothing on it is the passage

                    await app.locator("#prev").click()
                    await app.locator("#pageno", has_text="p. 2 of 3").wait_for(timeout=60_000)
                    back = await page.locator("#app").screenshot(path=str(ARTIFACTS / "back-page-2.png"))
                    assert abs(_highlight_rows(back)[1] - marked) <= 2  # the passage's page, marked again
                    await app.locator("#prev").click()
                    await app.locator("#pageno", has_text="p. 1 of 3").wait_for(timeout=60_000)
                    assert await app.locator("#prev").is_disabled()
                    traffic = await page.evaluate("window.traffic")

                    # verify_draft's result: each quotation with its status; one that differs names the words
                    await page.evaluate("(result) => window.sendResult(result)",
                                        checked.model_dump(by_alias=True, mode="json"))
                    await app.locator("#places button", has_text="differs").click()
                    await app.locator("#detail", has_text="flood").wait_for(timeout=60_000)
                    assert "fire" in await app.locator("#detail").inner_text()
                    await app.locator("#pageno", has_text="p. 2 of 3").wait_for(timeout=60_000)
                    await page.wait_for_timeout(500)  # the new picture decoded and shown
                    differs = await page.locator("#app").screenshot(path=str(ARTIFACTS / "verify-differs.png"))
                    assert 0 < _highlight_rows(differs)[1] < marked  # the quoted sentence's line only
                    assert await app.locator("#places button", has_text="verified").count() == 1
                    found_at = checked.structured_content["quotes"][1]["found"]["citation"]
                    assert await app.locator("#citation").inner_text() == found_at
                finally:
                    await browser.close()
    assert traffic[:2] == ["ui/initialize", "ui/notifications/initialized"]
    assert traffic.count("tools/call") == 4
    assert problems == []
    assert [url for url in requests if not url.startswith(("about:", "data:"))] == []
