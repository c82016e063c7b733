"""Listings and help that fit the terminal (80 columns when it cannot be measured, e.g. in a pipe).

Help is click's plain layout (`rich_markup_mode=None`): typer's rich panels cut long option names at
80 columns ("--licence-key,--licen…") and print a `<bool>` type after flags such as `--help`; click
puts an option too long for its column on a line of its own and wraps only descriptions.

The shared renderers write one long line per document or case, which a terminal folds at an
arbitrary column. Here each over-long line is wrapped at spaces, its continuation indented under
the entry's text, and no word (a file name, an ID), quoted name or command to copy is ever cut."""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from typer._click import Context, HelpFormatter  # typer's own click, the one its groups receive

_KEEP = "\u00a0"  # textwrap never breaks at a no-break space
# Never split: a command to copy (they end the line), a quoted name, a label and its ID.
_UNBROKEN = re.compile(r'casetrack .*$|"[^"]*"|ID: ')
_ENTRY = re.compile(r"(\s*)(\d+\. |\* |- )?")  # leading spaces, then a list marker if any


def fit(text: str, width: int | None = None) -> str:
    width = width or shutil.get_terminal_size((80, 24)).columns
    lines: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            lines.append(line)
            continue
        match = _ENTRY.match(line)
        indent = match.group(1) if match else ""
        marker = match.group(2) if match and match.group(2) else "  "
        glued = _UNBROKEN.sub(lambda m: m.group(0).replace(" ", _KEEP), line[len(indent):])
        lines += [part.replace(_KEEP, " ") for part in textwrap.wrap(
            glued, width, initial_indent=indent, subsequent_indent=" " * (len(indent) + len(marker)),
            break_long_words=False, break_on_hyphens=False)]
    return "\n".join(lines)


class HelpGroup(TyperGroup):
    """A command group whose --help lists each command with its whole first sentence, wrapped under it
    (click cuts it to the width left: "Run the MCP server on stdio (what Claude Code and...")."""

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        rows = [(name, command.get_short_help_str(limit=_SENTENCE)) for name in self.list_commands(ctx)
                if (command := self.get_command(ctx, name)) is not None and not command.hidden]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


_SENTENCE = 1_000  # no limit: a command's first sentence is what says what it is for


def command_group(help_text: str) -> typer.Typer:
    """A group of commands (`casetrack cases ...`), its help laid out as the root's."""
    return typer.Typer(help=help_text, no_args_is_help=True, rich_markup_mode=None, cls=HelpGroup)
