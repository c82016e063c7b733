"""The structured results of the transcript tools and fields (issue 37; see `mcp/outputs.py`, which imports
`TranscriptPin` from here: this module imports nothing of it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")  # as outputs.Out


class TranscriptPin(_Out):
    """A transcript passage's place: `pin` the rows that hold the answer ("6:16"), `lines` all it holds."""

    pin: str
    lines: str
    citation: str  # "Smith Dep. 6:16 (Mar. 3, 2021)", "Hr'g Tr. 12:4"
    kind: str  # deposition, hearing, trial, transcript
    witness: str | None
    date: str | None
