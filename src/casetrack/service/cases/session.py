"""The case a session works in, and the last case the user chose, kept across restarts.

Claude Desktop restarts its server, Claude Code starts one per conversation, and one-shot clients
(scripts, the Inspector CLI) start one per call: a case chosen only in memory was lost each time,
and the first search failed with "No active case". So the user's last choice (create_case,
switch_case) is written to `<data dir>/last_case.json` and a new session starts in it. After that,
each session keeps its own choice: two servers on one data directory never move each other's
active case, and the file records whichever chose last, for the next session to start in.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from pathlib import Path

from casetrack.domain import Case, is_own_id
from casetrack.errors import CaseTrackError, NoCaseActive, NotFound, Step
from casetrack.service.cases.cases import CaseService

log = logging.getLogger(__name__)

FILE_NAME = "last_case.json"


class Session:
    def __init__(self, data_dir: Path, cases: CaseService) -> None:
        self._path = data_dir / FILE_NAME
        self._cases = cases
        self._active_id: str | None = None
        self.restored = False  # the active case came from an earlier session, not a choice in this one

    def restore(self) -> None:
        """Continue in the case the last session chose, if it is still there (reads last_case.json)."""
        remembered = self._remembered()
        if remembered is not None:
            try:
                case = self._cases.get(remembered)
            except CaseTrackError as exc:
                # Deleted since, or a registry this CaseTrack cannot read (a newer version's): start
                # with no case; the tools then answer with that error's own message.
                if not isinstance(exc, NotFound):
                    log.warning("Could not continue in the last case: %s", exc.message)
                return
            self._active_id, self.restored = case.id, True
            log.info('Continuing in case "%s", the last one chosen', case.name)

    @property
    def active_id(self) -> str | None:
        return self._active_id

    def choose(self, case: Case) -> None:
        """This session now works in `case`, and the next session starts there."""
        self._active_id, self.restored = case.id, False
        self._remember(case.id)

    def use(self, case: Case) -> None:
        """This session works in `case` without making it the next session's (a CLI's --case)."""
        self._active_id, self.restored = case.id, False

    def forget(self, case_id: str) -> None:
        """A deleted case is nobody's active case any more."""
        if self._active_id == case_id:
            self._active_id = None
        if self._remembered() == case_id:
            with contextlib.suppress(OSError):
                self._path.unlink()

    def active(self) -> Case:
        """The active case, freshly read. Raises NoCaseActive, or NotFound if it was deleted elsewhere."""
        if self._active_id is None:
            raise NoCaseActive()
        try:
            return self._cases.get(self._active_id)
        except NotFound:
            self._active_id = None
            raise NotFound("Case", "(the active case)", hint="It was deleted, perhaps from another window.",
                           step=Step("choose_again")) from None

    def case(self, ref: str | None) -> Case:
        """The case `ref` names (without switching to it), else the active case. Raises NotFound,
        NoCaseActive."""
        return self._cases.resolve(ref) if ref and ref.strip() else self.active()

    def _remembered(self) -> str | None:
        try:
            record = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        case_id = record.get("case_id") if isinstance(record, dict) else None
        return case_id if is_own_id(case_id) else None

    def _remember(self, case_id: str) -> None:
        tmp = self._path.with_name(f".{FILE_NAME}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"case_id": case_id, "chosen_at": time.time()}), encoding="utf-8")
            os.replace(tmp, self._path)
        except OSError as exc:  # the choice still holds for this session
            log.warning("Could not remember the active case in %s: %s", self._path, exc)
            with contextlib.suppress(OSError):
                tmp.unlink()
