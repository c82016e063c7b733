"""digest_transcript names each topic by its most frequent words; equally frequent words were ordered as a Python
set iterates, which changes with every process (hash randomisation): the same transcript's digest read differently
from one call of the server to the next. They are now named in the order first said."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.transcript_files import SMITH

SCRIPT = """
import json, sys
from casetrack.chunk.transcripts.testimony import testimony
from casetrack.chunk.transcripts.transcript import Line
from casetrack.service.search.testimony import topics
lines = [Line(page, 0, 0, page, row, text) for page, row, text in json.load(sys.stdin)]
print([(t.words, t.pin, t.exchanges) for t in topics(testimony(lines).exchanges)])
"""
ROWS = json.dumps([(page, row, text) for page, rows in sorted(SMITH.items())
                   for row, text in enumerate(rows, start=1) if text])


def _topics(seed: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=ROWS, env={**os.environ, "PYTHONHASHSEED": seed},
                          check=True, capture_output=True, text=True)
    return done.stdout.strip()


def test_a_transcripts_topics_are_named_the_same_in_every_process() -> None:
    first = _topics("1")
    assert first.startswith("[((") and "'pallet'" in first  # topics found, named by words the witness said
    assert all(_topics(seed) == first for seed in ("2", "3", "4", "5"))
