"""A local HTTP server that answers like the Hugging Face hub's /resolve/ endpoint."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class FakeHub:
    files: dict[str, bytes] = field(default_factory=dict)  # "repo/resolve/revision/path" -> bytes
    lfs: set[str] = field(default_factory=set)  # keys served as LFS files (ETag = SHA-256)
    corrupt_times: dict[str, int] = field(default_factory=dict)  # serve flipped bytes this many times
    truncate_times: dict[str, int] = field(default_factory=dict)  # send half, then drop the connection
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)  # (method, path, Range)

    def add(self, repo: str, revision: str, path: str, data: bytes, *, lfs: bool = True) -> str:
        key = f"{repo}/resolve/{revision}/{path}"
        self.files[key] = data
        if lfs:
            self.lfs.add(key)
        return key

    def etag(self, key: str) -> str:
        data = self.files[key]
        if key in self.lfs:
            return hashlib.sha256(data).hexdigest()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _handler(hub: FakeHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # keep test output clean
            pass

        def _headers(self, key: str, status: int, length: int, extra: dict[str, str] | None = None) -> None:
            revision = key.split("/resolve/")[1].split("/")[0]
            self.send_response(status)
            self.send_header("X-Repo-Commit", revision)
            self.send_header("ETag", f'"{hub.etag(key)}"')
            self.send_header("Content-Length", str(length))
            self.send_header("Accept-Ranges", "bytes")
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()

        def _key(self) -> str | None:
            key = self.path.split("?")[0].lstrip("/")
            return key if key in hub.files else None

        def do_HEAD(self) -> None:
            hub.requests.append(("HEAD", self.path, None))
            key = self._key()
            if key is None:
                self.send_response(404)
                self.send_header("X-Error-Code", "EntryNotFound")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self._headers(key, 200, len(hub.files[key]))

        def do_GET(self) -> None:
            hub.requests.append(("GET", self.path, self.headers.get("Range")))
            key = self._key()
            if key is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = hub.files[key]
            if hub.corrupt_times.get(key, 0) > 0:
                hub.corrupt_times[key] -= 1
                data = bytes(b ^ 0xFF for b in data[:64]) + data[64:]
            start = 0
            wanted = self.headers.get("Range")
            if wanted and wanted.startswith("bytes="):
                start = int(wanted[6:].split("-")[0] or 0)
            body = data[start:]
            if start:
                self._headers(key, 206, len(body), {"Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"})
            else:
                self._headers(key, 200, len(body))
            if hub.truncate_times.get(key, 0) > 0:
                hub.truncate_times[key] -= 1
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

    return Handler


@contextmanager
def serve(hub: FakeHub) -> Iterator[str]:
    """Run the fake hub on 127.0.0.1; yields its endpoint URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
