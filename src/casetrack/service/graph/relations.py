"""How documents relate: shared entities and authorities, semantic similarity of their
chunk centroids, response chains (pleadings answering pleadings, e-mails of one thread) and
amendment chains; and grouping documents into clusters."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from casetrack.domain import Document, DocumentType
from casetrack.graph.mail.threads import base_subject, sent_time
from casetrack.parse.formats import MAIL_FORMATS
from casetrack.service.graph.case_graph import CaseGraph, Node
from casetrack.service.search.index_cache import DENSE_ORDER, CaseIndex

# Dates and amounts are everywhere; sharing them says little about a relationship.
WEAK_KINDS = {"date", "monetary_amount"}
RESPONSE_WORDS = ("complaint", "petition", "answer", "response", "opposition", "reply", "sur-reply")
AMENDMENT = re.compile(r"\b(amend(?:ed|ment)|restated|supplement(?:al)?|addendum|first|second|third)\b", re.I)


@dataclass(slots=True)
class Relation:
    document: Document
    score: float
    reasons: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)


def centroids(index: CaseIndex) -> tuple[str | None, dict[str, np.ndarray]]:
    """One L2-normalised mean vector per document, from the best dense embedder present."""
    name = next((n for n in DENSE_ORDER if n in index.dense and len(index.dense[n])), None)
    if name is None:
        return None, {}
    dense = index.dense[name]
    out: dict[str, np.ndarray] = {}
    for doc_id, chunk_ids in index.chunks_of.items():
        present = [c for c in chunk_ids if c in dense]
        if present:
            mean = dense.vectors(present).mean(axis=0)
            out[doc_id] = mean / (np.linalg.norm(mean) or 1.0)
    return name, out


def related(doc: Document, graph: CaseGraph, index: CaseIndex, kind: str = "all", top_k: int = 10) -> list[Relation]:
    found: dict[str, Relation] = {}

    def note(other_id: str, score: float, reason: str, rel: str) -> None:
        other = graph.documents.get(other_id)
        if other is None or other_id == doc.id:
            return
        r = found.setdefault(other_id, Relation(other, 0.0))
        r.score += score
        r.reasons.append(reason)
        r.kinds.add(rel)

    if kind in ("all", "shared_entities"):
        mine = {k for k, n in graph.entities.items() if doc.id in n.documents and n.kind not in WEAK_KINDS}
        for other_id, shared in _shared(graph.entities, mine, doc.id).items():
            names = sorted(graph.entities[k].name for k in shared)[:5]
            note(other_id, len(shared) / math.sqrt(len(mine) or 1), f"shares {len(shared)} entities: "
                 f"{', '.join(names)}", "shared_entities")
    if kind in ("all", "shared_authorities"):
        mine = {k for k, n in graph.authorities.items() if doc.id in n.documents}
        for other_id, shared in _shared(graph.authorities, mine, doc.id).items():
            names = sorted(graph.authorities[k].name for k in shared)[:3]
            note(other_id, 1.5 * len(shared) / math.sqrt(len(mine) or 1),
                 f"cites {len(shared)} of the same authorities: {'; '.join(names)}", "shared_authorities")
    if kind in ("all", "semantic_similar"):
        _, cents = centroids(index)
        if doc.id in cents:
            for other_id, vector in cents.items():
                if other_id != doc.id:
                    sim = float(cents[doc.id] @ vector)
                    if sim > 0.5:
                        note(other_id, sim, f"similar in meaning (similarity {sim:.2f})", "semantic_similar")
    if kind in ("all", "response_chain"):
        for other in graph.documents.values():
            link = _response_link(doc, other) or _thread_link(doc, other)
            if link:
                note(other.id, 1.0, link, "response_chain")
    if kind in ("all", "amendment_chain"):
        for other in graph.documents.values():
            if other.id != doc.id and _amendment_link(doc, other):
                note(other.id, 1.0, "amendment chain: same base title, one amends or restates the other",
                     "amendment_chain")
    return sorted(found.values(), key=lambda r: -r.score)[:top_k]


def _shared(nodes: dict[str, Node], mine: set[str], doc_id: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for key in mine:
        for other_id in nodes[key].documents:
            if other_id != doc_id:
                out.setdefault(other_id, set()).add(key)
    return out


def _stem_title(doc: Document) -> str:
    base = doc.name.rsplit(".", 1)[0].replace("_", " ").replace("-", " ").casefold()
    return re.sub(r"\s+", " ", AMENDMENT.sub(" ", base)).strip()


def _amendment_link(a: Document, b: Document) -> bool:
    names = (a.name, b.name)
    return any(AMENDMENT.search(n) for n in names) and _stem_title(a) == _stem_title(b) and a.name != b.name


def _response_link(a: Document, b: Document) -> str | None:
    """complaint -> answer -> reply, by pleading titles (a filing responds to the previous step)."""
    if a.id == b.id or (DocumentType.PLEADING not in (a.document_type, b.document_type) and \
            DocumentType.MOTION not in (a.document_type, b.document_type)):
        return None
    def step(d: Document) -> int | None:
        name = d.name.casefold()
        return next((i for i, w in enumerate(RESPONSE_WORDS) if w in name), None)
    sa, sb = step(a), step(b)
    if sa is None or sb is None or abs(sa - sb) not in (1, 2) or sa == sb:
        return None
    first, second = (a, b) if sa < sb else (b, a)
    return f"response chain: {second.name} responds to {first.name}"


def _thread_link(a: Document, b: Document) -> str | None:
    """Two e-mails of one thread: the same subject once "RE:"/"FW:" prefixes are set aside; the later
    one follows the earlier when both are dated."""
    subject_a, subject_b = _thread_subject(a), _thread_subject(b)
    if a.id == b.id or subject_a is None or subject_a.casefold() != (subject_b or "").casefold():
        return None
    sent_a, sent_b = _sent(a), _sent(b)
    if sent_a is None or sent_b is None or sent_a == sent_b:
        return f'e-mail thread: same subject "{subject_a}"'
    first, second = (a, b) if sent_a < sent_b else (b, a)
    return f'e-mail thread "{subject_a}": {second.name} follows {first.name}'


def _thread_subject(doc: Document) -> str | None:
    base = base_subject(doc.metadata.get("subject", "")) if doc.format in MAIL_FORMATS else ""
    return base or None


def _sent(doc: Document) -> datetime | None:
    return sent_time(doc.metadata.get("date", ""))


@dataclass(slots=True)
class Cluster:
    label: str
    documents: list[Document]
    detail: str = ""


def clusters(graph: CaseGraph, index: CaseIndex, strategy: str, max_clusters: int,
             terms: dict[str, Counter[str]]) -> list[Cluster]:
    docs = list(graph.documents.values())
    if strategy == "document_type":
        groups: dict[str, list[Document]] = {}
        for d in docs:
            groups.setdefault(d.document_type.value, []).append(d)
        return [Cluster(k, v) for k, v in sorted(groups.items(), key=lambda kv: -len(kv[1]))][:max_clusters]
    if strategy in ("entity", "authority"):
        nodes = graph.entities if strategy == "entity" else graph.authorities
        ranked = sorted((n for n in nodes.values() if n.kind not in WEAK_KINDS and len(n.documents) > 1),
                        key=lambda n: -len(n.documents))
        out, seen = [], set()
        for node in ranked:
            members = [graph.documents[d] for d in node.documents if d in graph.documents]
            key = frozenset(d.id for d in members)
            if key in seen:
                continue
            seen.add(key)
            out.append(Cluster(node.name, members, f"{len(members)} documents mention it"))
            if len(out) == max_clusters:
                break
        return out
    _, cents = centroids(index)
    ids = [d for d in cents if d in graph.documents]
    if not ids:
        return []
    k = max(1, min(max_clusters, round(math.sqrt(len(ids) / 2)) or 1, len(ids)))
    labels = _kmeans(np.stack([cents[i] for i in ids]), k)
    out = []
    for c in range(k):
        members = [graph.documents[ids[i]] for i in range(len(ids)) if labels[i] == c]
        if members:
            out.append(Cluster(_label(members, terms), members, "similar in meaning"))
    return sorted(out, key=lambda cl: -len(cl.documents))


def _kmeans(x: np.ndarray, k: int, rounds: int = 25) -> np.ndarray:
    """Deterministic k-means on unit vectors (farthest-point start): same input, same clusters."""
    centres = [x[0]]
    for _ in range(1, k):
        dist = 1 - np.max(x @ np.stack(centres).T, axis=1)
        centres.append(x[int(np.argmax(dist))])
    c = np.stack(centres)
    labels = np.zeros(len(x), dtype=int)
    for _ in range(rounds):
        labels = np.argmax(x @ c.T, axis=1)
        new = np.stack([x[labels == i].mean(axis=0) if np.any(labels == i) else c[i] for i in range(k)])
        new /= np.linalg.norm(new, axis=1, keepdims=True) + 1e-12
        if np.allclose(new, c):
            break
        c = new
    return labels


def _label(members: list[Document], terms: dict[str, Counter[str]]) -> str:
    """Distinctive terms: frequent in the cluster, rare across the case (tf-idf over documents)."""
    inside: Counter[str] = Counter()
    for d in members:
        inside.update(terms.get(d.id, Counter()))
    df: Counter[str] = Counter()
    for counts in terms.values():
        df.update(set(counts))
    n = len(terms) or 1
    scored = {t: c * math.log((n + 1) / (df[t] + 0.5)) for t, c in inside.items()
              if len(t) > 3 and not t.isdigit() and df[t] < n}
    top = [t for t, _ in sorted(scored.items(), key=lambda kv: -kv[1])[:4]]
    return ", ".join(top) or members[0].document_type.value
