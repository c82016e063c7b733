"""Nothing leaves the machine, as the kernel sees it (issue 33 §1).

onnxruntime 1.29+ resolved mobile.events.data.microsoft.com a few seconds after its first session and,
where DNS answered, opened TLS to it; the server also asked PyPI for a newer version at every start.
A local listener (tests/test_no_network.py) cannot see either: they go to other hosts. So the real
server runs under `strace -f -e trace=network` (every process it starts included), is given a PDF, a
text file, a scan (Tesseract) and a .doc (LibreOffice), searched (the ONNX session exists from then on)
and left idle for 25 s, and every connect, sendto, sendmsg and sendmmsg it made is read back: any to an
address off loopback fails the test, and so does any DNS query (port 53), to whichever resolver, loopback
ones too (127.0.0.53 is systemd's).
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import anyio
import docx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from casetrack import telemetry_off
from casetrack.parse.word.libreoffice import offline_environment
from tests.badfiles import text_pdf_bytes
from tests.mcp_helpers import CASETRACK, call_ok, server_env, text_of
from tests.parse.synthetic import text_image
from tests.parse.test_docx import libreoffice_convert

STRACE = shutil.which("strace")
IDLE_S = 25
_CALL = re.compile(r"\b(connect|sendto|sendmsg|sendmmsg)\(")
_INET = re.compile(r'sa_family=AF_INET6?, sin6?_port=htons\((\d+)\).*?inet_(?:addr|pton)\((?:AF_INET6, )?"([^"]+)"')



def off_machine(trace: str) -> list[str]:
    """The calls in an strace log that sent to (or connected to) anything but loopback, or asked DNS."""
    found = []
    for line in trace.splitlines():
        if not _CALL.search(line):
            continue
        for port, host in _INET.findall(line):
            address = ipaddress.ip_address(host.split("%")[0])
            mapped = getattr(address, "ipv4_mapped", None)
            if int(port) == 53 or not (address.is_loopback or (mapped is not None and mapped.is_loopback)):
                found.append(line.strip())
    return found


def asked_names(trace: str) -> list[str]:
    """The host names in the DNS queries of an strace log (for the failure message)."""
    resolver_fds = {m.group(1) for m in re.finditer(r"connect\((\d+), \{sa_family=AF_INET6?, sin6?_port=htons\(53\)",
                                                   trace)}
    names = []
    for fd, payload in re.findall(r'send(?:to|mmsg)\((\d+), .*?"(.*?)"', trace):
        labels = re.findall(r"\\(?:\d{1,3}|[tnvfr])([A-Za-z][A-Za-z0-9-]+)", payload)
        if fd in resolver_fds and labels:
            names.append(".".join(labels))
    return sorted(set(names))


def _finished_trace(trace: Path) -> str:
    """The strace log once the server (its first process) has exited: strace writes until then."""
    log = ""
    for _ in range(300):
        log = trace.read_text(errors="replace") if trace.is_file() else ""
        first = log.split(maxsplit=1)[0] if log else ""
        if first and (f"{first} +++ exited" in log or f"{first} +++ killed" in log):
            break
        time.sleep(0.1)
    return log


def test_the_parser_sees_a_dns_query_a_connection_out_and_lets_loopback_and_unix_sockets_be() -> None:
    trace = "\n".join([
        '7 connect(8, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16 <unfinished',
        '7 connect(9, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), '
        'inet_pton(AF_INET6, "2603:1030::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH',
        '7 sendto(5, "q", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 1',
        '7 connect(3, {sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
        '7 connect(3, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), '
        'inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
        '7 connect(7, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
        '7 sendto(8, "!", 50, MSG_NOSIGNAL, NULL, 0) = 50',
    ])
    assert len(off_machine(trace)) == 3
    sent = ('9 sendto(8, "!\\351\\1\\0\\6mobile\\6events\\4data\\tmicrosoft\\3com\\0\\0\\1", 50, '
            "MSG_NOSIGNAL, NULL, 0) = 50")
    assert asked_names(trace + "\n" + sent) == ["mobile.events.data.microsoft.com"]


@pytest.mark.slow  # 25 s of idling: CI runs it in its `-m slow` pass, after the default run
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="strace traces Linux processes")
def test_the_real_server_sends_nothing_off_the_machine_through_ingest_search_and_idle(tmp_path: Path) -> None:
    assert STRACE, "strace is needed (Debian: apt-get install strace; .ci/run installs it)"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lease.pdf").write_bytes(text_pdf_bytes([[
        (72, 700, "The tenant shall pay rent of 2,400 dollars on the first day of each month."),
        (72, 680, "Either party may terminate this lease on sixty days written notice."),
    ]]))
    (docs / "notes.txt").write_text("Call with the landlord about the termination notice and the deposit.\n"
                                    "The deposit of 4,800 dollars is held in escrow.\n", encoding="utf-8")
    # A scan (Tesseract reads it) and, where LibreOffice is installed, a .doc (LibreOffice converts it): every
    # program the server starts is traced with it (-f).
    text_image(["The landlord holds the deposit in escrow until the lease ends."]).save(docs / "scan.png")
    if shutil.which("soffice") or shutil.which("libreoffice"):
        word = docx.Document()
        word.add_paragraph("The tenant may sublet with the landlord's written consent.")
        word.save(str(tmp_path / "sublet.docx"))
        shutil.copy(libreoffice_convert(tmp_path / "sublet.docx", "doc", tmp_path / "convert"), docs / "sublet.doc")
    trace = tmp_path / "strace.txt"
    # The server's environment as a user's might be: the switches set the wrong way (a value meant for
    # another program) and no update-check setting at all, so CaseTrack's own defaults are what is tested.
    env = {k: v for k, v in server_env(tmp_path / "data").items() if k != "CASETRACK_NO_UPDATE_CHECK"}
    env.update({name: "0" for name in telemetry_off.SWITCHES})
    strace = ["-f", "-q", "-s", "256", "-e", "trace=network", "-o", str(trace)]
    params = StdioServerParameters(command=STRACE, args=[*strace, CASETRACK, "serve"], env=env)

    async def session() -> str:
        async with Client(params, read_timeout_seconds=180) as client:
            await call_ok(client, "create_case", name="Traced")
            for path in sorted(docs.iterdir()):
                await call_ok(client, "ingest_document", file_path=str(path), wait_seconds=300)
            found = await call_ok(client, "search_case", query="how can the lease be terminated")
            await anyio.sleep(IDLE_S)  # onnxruntime's telemetry went out ~5 s after the session was made
            return text_of(found)

    found = anyio.run(session)
    assert "sixty days" in found
    log = _finished_trace(trace)
    assert "socketpair(" in log, "strace traced nothing of the server: " + log[:500]  # asyncio makes one
    assert off_machine(log) == [], f"DNS asked for {asked_names(log)}:\n" + "\n".join(off_machine(log)[:20])


def test_every_casetrack_process_and_the_programs_it_starts_run_with_runtime_telemetry_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = {name: "0" for name in telemetry_off.SWITCHES}  # a user's values meant for another program
    probe = ("import casetrack, os, sys; "
             "sys.stdout.write(repr([os.environ.get(n) for n in casetrack.telemetry_off.SWITCHES]))")
    done = subprocess.run([sys.executable, "-c", probe], env={**os.environ, **wrong}, capture_output=True,
                          text=True, check=True)
    assert done.stdout == repr(["1"] * len(telemetry_off.SWITCHES))
    for name in wrong:
        monkeypatch.setenv(name, "0")
    for environment in (offline_environment(tmp_path), telemetry_off.child_environment()):
        assert {name: environment[name] for name in wrong} == dict(telemetry_off.SWITCHES)
