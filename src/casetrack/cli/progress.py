"""What `casetrack ingest FOLDER` shows while it works and what it adds to the folder report.

Progress goes to stderr only: stdout carries the result, so `casetrack ingest ... > report.txt`
saves the report and nothing else. On a terminal it is a bar naming the file being read;
otherwise (a log, a pipe) one line a file, so a long unattended run leaves a trace."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from casetrack.service.infra.jobs import UNCHANGED, Progress

BAR_WIDTH = 12
BAR_OVERHEAD = 32 + BAR_WIDTH  # "Ingesting  [bar]   54%  00:00:15  " before the file name, and one spare column


def _fit(name: str, room: int) -> str:
    return name if len(name) <= room else "..." + name[-(room - 3):]


@contextmanager
def folder_progress(total: int) -> Iterator[Progress]:
    if not sys.stderr.isatty():
        def line(done: int, total: int, current: str) -> None:
            if current.endswith(UNCHANGED):
                typer.echo(f"Skipping  [{done + 1}/{total}] {current.removesuffix(UNCHANGED)}: unchanged", err=True)
            else:
                typer.echo(f"Ingesting [{done + 1}/{total}] {current}", err=True)

        yield line
        return
    room = max(shutil.get_terminal_size().columns - BAR_OVERHEAD, 12)  # a wrapped bar cannot redraw itself

    def shown(name: str | None) -> str:
        return _fit(name, room) if name else ""

    with typer.progressbar(length=max(total, 1), label="Ingesting", file=sys.stderr, width=BAR_WIDTH,
                           item_show_func=shown) as bar:
        def update(done: int, total: int, current: str) -> None:
            bar.current_item = current
            if done > bar.pos:
                bar.update(done - bar.pos)
            else:
                bar.render_progress()  # same count, new file name

        yield update
        bar.current_item = None
        bar.update(max((bar.length or 0) - bar.pos, 0))
