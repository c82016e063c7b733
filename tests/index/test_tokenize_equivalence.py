"""The fast tokenizer (whitespace pieces + memo) gives exactly the terms of one regex scan.

BM25 ranking is tuned against the terms `tokenize` produces, so its speed-ups must never
change a single term. The reference below is the tokenizer as it was before the piece
memo: one `finditer` over the whole lowercased text, no caches. It shares the rules (the
token regex and the emitters) with the product, so the check stays meaningful when the
rules are tuned: any new rule that matches across whitespace fails here first."""

from __future__ import annotations

import json
import random

import pytest

from casetrack.index import tokenize as tokenize_module
from casetrack.index.aliases import fold, with_aliases
from casetrack.index.tokenize import DEFAULT_TOKENIZER, TokenizerConfig, tokenize
from tests.datasets import EVAL_DEV


def reference_tokenize(text: str, config: TokenizerConfig = DEFAULT_TOKENIZER) -> list[str]:
    out: list[str] = []
    for match in tokenize_module._TOKEN.finditer(fold(text.lower())):
        kind = match.lastgroup
        assert kind is not None
        raw = match.group()
        if kind == "word":
            out.extend(tokenize_module._word(raw, config))
        else:
            out.extend(tokenize_module._EMITTERS[kind](raw, config))
    return with_aliases(out)  # the aliases that span terms (index.aliases) are added after either scan


def eval_dev_texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((EVAL_DEV / "text").glob("*.txt"))]
    lines = (EVAL_DEV / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    texts += [str(json.loads(line)["query"]) for line in lines if line.strip()]
    return texts


PATHOLOGICAL = [
    "", " ", "\n\n", "$", "$ ", "$ 5", "$  5", "$\n5", "$\u00a05", "$ $ 5", "$ 5$ 6", "$5,000.00", "$ 1,500,000.00",
    "§", "§ ", "§ 1983", "§\n\n1983", "§  § 5", "§§ 12(b)", "§ §§ 4", "¶¶\t4", "x§ 5", "(§ 5)", "§ (a)",
    "Section", "section 8.1", "Sections\n3.1 and 8.1.2", "subsection 5", "section section 5", "see Section",
    "paragraph 4", "PARAGRAPHS 4(a)(i)", "paragraph\u2003 4", "sections.", "section: 5", "sections sections",
    "42 U.S.C. § 1983", "1:19-cv-01234-ABC", "10/31/2017", "12(b)(6)", "F.3d 456", "U.S.C.", "e.g., i.e.",
    "the parties' co-branding", "Company’s", "İstanbul ΑΣ ΣΑ", "x\x1cy\x1d§\x1e5", "a_b__c", "8.1.2.", "2.5x",
    "para. 5", "paras.\n12-14", "Para.", "para.para. 5", "§ 1.409A-3(i)(5)", "§\n163-230.2", "1.409a-3-", "2-3.4(a)-5",
    "word" * 40 + " section 5", "§" * 70 + " 5", "$" * 70 + " 5", "-" * 100, "a" * 300,
]


def random_texts(count: int, seed: int = 20261121) -> list[str]:
    """Short strings from the characters and words the rules care about, whitespace of every kind."""
    alphabet = ["$", "§", "¶", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "\x1c", "section", "Sections", "paragraph",
                "1", "12", "2017", ".", ",", "(", ")", "(b)", "para.", "a", "U.S.C.", "F.3d", "-", "'", "’", ":", "/",
                "cv", "İ", "Σ", "_", "the", "parties", "8.1", "x"]
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25))) for _ in range(count)]


def test_every_eval_dev_text_tokenizes_exactly_as_one_scan() -> None:
    for text in eval_dev_texts():
        expected = reference_tokenize(text)
        assert tokenize(text) == expected  # cold or warm memo...
        assert tokenize(text) == expected  # ...the same terms
        for paragraph in text.split("\n\n"):  # chunk-sized pieces, and a header in front as indexing does
            assert tokenize(f"bundle\n13 TERMINATION > 13.2 Section\n\n{paragraph}") == reference_tokenize(
                f"bundle\n13 TERMINATION > 13.2 Section\n\n{paragraph}")


@pytest.mark.parametrize("text", PATHOLOGICAL)
def test_pathological_strings_tokenize_exactly_as_one_scan(text: str) -> None:
    assert tokenize(text) == reference_tokenize(text)
    assert tokenize(text) == reference_tokenize(text)


def test_random_strings_tokenize_exactly_as_one_scan() -> None:
    for text in random_texts(20_000):
        assert tokenize(text) == reference_tokenize(text), repr(text)


def test_other_configurations_use_the_same_rules() -> None:
    config = TokenizerConfig(stem=False)
    for text in [*PATHOLOGICAL, *random_texts(500)]:
        assert tokenize(text, config) == reference_tokenize(text, config)


def test_the_memo_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokenize_module, "_CACHE_LIMIT", 50)
    text = " ".join(f"clause{i}" for i in range(500))
    assert tokenize(text) == reference_tokenize(text)
    assert len(tokenize_module._PIECE_CACHE) <= 50
