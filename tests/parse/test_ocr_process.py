"""A Tesseract process never outlives the server that started it (issue 20: a server killed during OCR left its
Tesseract processes reading a client's page for nobody)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

SERVER = textwrap.dedent("""
    import sys, threading
    from casetrack.parse.ocr import engine as ocr
    # as OCR's worker threads run Tesseract; `sleep` stands in for a page that takes a minute
    threading.Thread(target=ocr._run, args=(["sleep", "60"], 120), daemon=True).start()
    print("started", flush=True)
    threading.Event().wait()
""")


@pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("setpriv"),
                    reason="the kernel's parent-death signal is Linux's, asked through util-linux's setpriv")
def test_a_process_run_for_ocr_is_killed_with_the_server_that_started_it() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None and server.stdout.readline() == b"started\n"
        deadline = time.monotonic() + 30
        while not (running := [p for p in psutil.Process(server.pid).children(recursive=True) if p.name() == "sleep"]):
            assert time.monotonic() < deadline, "the OCR process never started"
            time.sleep(0.01)
    finally:
        server.kill()  # SIGKILL: no handler of the server's can clean up
        server.wait()
        if server.stdout is not None:
            server.stdout.close()
    _, alive = psutil.wait_procs(running, timeout=5)
    for process in alive:
        process.kill()
    assert not alive, "the OCR process outlived the server that started it"
