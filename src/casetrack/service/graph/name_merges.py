"""Names of one party or organisation merged across a case's documents: a name one document prints cut
short, or without its corporate suffix, joins the one another document names in full."""

from __future__ import annotations

from casetrack.graph.names import display_name, suffixed_forms
from casetrack.graph.parties.truncation import ELLIPSIS, continues
from casetrack.service.graph.model import CaseGraph, Node


def complete_cut_names(graph: CaseGraph) -> None:
    """A party one document prints cut short (a docket's short title, "National Football League Manag…") is
    the one party or organisation another document of the case names in full that continues it: its mentions
    and roles join that one. With none, or more than one, it stays as printed, marked cut."""
    for cut in [n for n in graph.parties.values() if n.name.endswith(ELLIPSIS)]:
        fuller = {n.key: n for n in (*graph.parties.values(), *graph.entities.values())
                  if n.kind == cut.kind and not n.name.endswith(ELLIPSIS) and continues(cut.name[:-1], n.name)}
        if len(fuller) != 1:
            continue
        (full,) = fuller.values()
        _fold(graph, cut.key, full)


def join_suffixed_forms(graph: CaseGraph) -> None:
    """An organisation named without its corporate suffix (a caption's `MERIDIAN FREIGHT SYSTEMS`) is the one
    that adds it (`Meridian Freight Systems, Inc.`): one party, shown in its most informative form and role."""
    for nodes in (graph.parties, graph.entities):
        for bare, suffixed in suffixed_forms(nodes).items():
            if bare in nodes and suffixed in nodes:
                full = nodes[suffixed]
                full.name = display_name([full.name, nodes[bare].name])
                _fold(graph, bare, full, informative=True)


def _fold(graph: CaseGraph, key: str, full: Node, informative: bool = False) -> None:
    """The node `key` (a party or entity) joined to `full`: its mentions and roles; `informative`: not the bare
    "party" when the other says which party (a caption's defendant is the contract's party)."""
    for nodes in (graph.parties, graph.entities):
        gone = nodes.pop(key, None)
        if gone is None:
            continue
        into = nodes.setdefault(full.key, type(full)(full.key, full.name, full.kind))
        into.roles |= gone.roles
        if informative and into.roles - {"party"}:
            into.roles.discard("party")
        into.mentions.extend(gone.mentions)
