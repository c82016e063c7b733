"""The pipeline's signals: the lexical lists' names, each model's signal name, and their default weights, all from
the model registry (embed.specs) but for the lexical ones, which are the pipeline's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casetrack.embed.specs import MODELS, ModelSpec, SearchRole, by_priority
from casetrack.search.windows import BEST_WINDOW

BM25 = "bm25"
# BM25 over the query's reference tokens only (section numbers, docket numbers, amounts, citations, dates: any
# token with a digit or a §/¶/$ sign). A stage-2 signal, so that a query naming "Section 4.5" or "17-3510" ranks
# the passages carrying that identifier by it rather than letting a semantically close passage without it win
# the fusion: RRF sees only ranks, so a BM25 margin of 5x on the identifier otherwise counts as much as 1.01x.
EXACT = "exact"
# BM25 over the query's tokens without the words that name the document it asks about ("netgear",
# "distributor" in "the governing law clause of the NETGEAR distributor agreement"; see search.scope).
# Runs only in a search of the named document, beside BM25: the naming words are rare in the case, so
# there they outweigh the words of the clause asked for and rank the passages repeating the name first;
# a question about the parties, whose names those words are, still has them through BM25.
UNNAMED = "unnamed"
# BM25 over the `from:` and `to:` terms of the correspondents a question names ("what did Bob Williams tell Jim
# Steffes"; search.correspondents): the messages from the one to the other rank first among the candidates.
MAIL = "mail"


def reference_tokens(tokens: Sequence[str]) -> list[str]:
    """The query tokens that name something exactly: any with a digit or a §, ¶ or $ sign,
    except a bare sign (which only says "some section")."""
    return [t for t in tokens if len(t) > 1 and (any(c.isdigit() for c in t) or t[0] in "§¶$")]


def signal(model_id: str) -> str:
    """The name a model's vectors go by in the pipeline ("E7" -> "e7")."""
    return model_id.lower()


# The lexical signals' weights; each model's own role and weight come from its ModelSpec.
LEXICAL_WEIGHTS = {BM25: 1.0, EXACT: 1.0, UNNAMED: 1.0, MAIL: 2.0}


def recall_signals(models: Mapping[str, ModelSpec] = MODELS) -> tuple[str, ...]:
    """The dense signals that recall, in order of preference (the first available one recalls)."""
    return tuple(signal(m.id) for m in by_priority(models.values(), SearchRole.RECALL))


def weights_of(*roles: SearchRole, models: Mapping[str, ModelSpec] = MODELS) -> dict[str, float]:
    """The fusion weight of each model of these roles; a windowed one shares it with its best-window list."""
    out: dict[str, float] = {}
    for m in models.values():
        if m.role in roles:
            share = m.best_window_share if m.role in (SearchRole.RECALL, SearchRole.RANK) else 0.0
            out[signal(m.id)] = m.weight * (1.0 - share)
            if share > 0:
                out[signal(m.id) + BEST_WINDOW] = m.weight * share
    return out


RERANK_MODEL = next((m for m in MODELS.values() if m.role is SearchRole.RERANK), None)
