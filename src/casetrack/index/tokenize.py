"""BM25 tokenisation that keeps legal tokens whole.

One function, `tokenize`, serves documents and queries alike, so a query token can only
match a token the same rules produced from a passage. Rules, in the order they are tried
at each position of the lowercased text:

  money      `$1,500,000.00` -> `$1500000` + `1500000`   (commas and `.00` dropped, so
             `$1500000` and `$1,500,000` agree; the bare amount lets `1,500,000` match too)
  case no.   `1:19-cv-01234-ABC` -> `1:19-cv-01234-abc`, `1:19-cv-01234`, `19-cv-01234`
             (citations often omit the judge's initials or the office prefix), then the
             docket aliases of index.aliases (`19-cv-1234`, `1:19-cv-1234`); `1:20CV457` too
  date       `10/31/2017` -> `10/31/2017`, `2017-10-31`
  subsection `12(b)(6)` -> `12(b)(6)`, `12(b)`, `12`; `2.3(a)` -> `2.3(a)`, `2.3`
             (a search for Rule 12(b) finds 12(b)(6); the full token is rarer, so an exact
             query still ranks the exact passage first)
  reporter   `F.3d`, `S.W.2d` -> `f.3d`, `s.w.2d`
  abbrev.    `U.S.C.` -> `u.s.c.` + `usc`; `U.S.` -> `u.s.` only (a dotless alias is added
             when it is 3+ letters and not a stopword, so `u.s.` never becomes `us`)
  reference  `§ 1983`, `Section 8.1`, `§§ 12(b)` -> `§`, `§1983` / `§8.1` / `§12(b)`, then the
             number's own tokens: the joined token carries the adjacency, so "42 U.S.C.
             § 1983" beats a passage that merely mentions 1983 and some other § nearby
  symbols    `§`, `§§`, the words `section`/`sections` -> `§`; `¶`, `¶¶`, `paragraph(s)` -> `¶`
  numbers    `1,500,000` -> `1500000`; `8.1.2` -> `8.1.2`, `8.1` (dotted ancestors, never
             the bare `8`: dotted numbers are also decimals such as `2.5`)
  abbrev.    a word and its dot (`Mfg.`, `Serv.`): the word, and the words a Bluebook case-name
             abbreviation stands for (`manufacturing`, `service`; index.aliases)
  words      letters/digits with inner apostrophes and hyphens. Possessive `'s` dropped.
             With a digit and a hyphen (`21-1234`, `10b-5`) the token is kept whole;
             without a digit (`co-branding`) it yields `cobranding`, `co`, `branding`.

Before the rules, dashes and quotes are folded (an en dash is a hyphen, an em dash a space);
after them, index.aliases adds the aliases that span terms (dates, `$1.5 million`, Bates numbers).

Plain words are then filtered (stopwords, single letters) and, if enabled, stemmed with
Harman's S-stemmer (plurals only): light and deterministic, so `parties` meets `party`
without conflating `terminate` and `terminal`. Legal tokens are never stemmed or dropped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from casetrack.index.aliases import (
    bates_word_alias,
    case_name_expansions,
    docket_aliases,
    fold,
    slash_date_alias,
    with_aliases,
)

# A compact English list. Negations (`no`, `not`, `nor`) are deliberately absent: in
# clauses "shall not" and "shall" differ, and the words are frequent enough to cost little.
_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself
yourselves us also upon e.g. i.e. etc
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

# Words and symbols that mean the same legal unit; values are what gets indexed.
CANONICAL: Mapping[str, str] = {
    "section": "§",
    "sections": "§",
    "§§": "§",
    "paragraph": "¶",
    "paragraphs": "¶",
    "¶¶": "¶",
    "para.": "¶",
    "paras.": "¶",
}

_L = r"[^\W\d_]"  # a letter, Unicode-aware
_W = r"[^\W_]"  # a letter or digit

_REF_HEAD = r"(?:§+|¶+|\bsections?\b|\bparagraphs?\b|\bparas?\.)"
_REF_NUM = rf"\d+(?:\.\d+)*{_W}?(?:\({_W}{{1,5}}\))*"  # 1983, 8.1, 2000e, 12(b)(6)
_DOTTED_NUM = rf"\d+{_L}?(?:\.\d+{_L}?)*"  # 163, 1.409a, 240.10b
# The rules, tried in this order at each position. `compound` reads a section number whose parts a
# hyphen joins ("1.409A-3(i)(5)", "163-230.2", "§ 13-21-102"); it is tried before the rules that
# would split it, and its emitter adds what they gave (see _compound).
_RULES: tuple[tuple[str, str], ...] = (
    ("money", r"\$\s?\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$\s?\d+(?:\.\d+)?"),
    ("caseno", rf"\d{{1,2}}:\d{{2}}(?:-{_L}{{1,5}}-|{_L}{{2,5}})\d{{1,6}}(?:-{_W}+)*"),
    ("date", r"\d{1,2}/\d{1,2}/\d{2,4}"),
    ("compound", rf"(?:{_REF_HEAD}\s*)?{_DOTTED_NUM}(?:-{_DOTTED_NUM})+(?:\({_W}{{1,5}}\))*(?![\w-])"),
    ("subsec", rf"\d+{_L}?(?:\.\d+)*(?:\({_W}{{1,5}}\))+"),
    ("reporter", rf"(?:{_L}{{1,5}}\.){{1,3}}\d(?:d|th|nd|rd)\b"),
    ("abbrev", rf"(?:{_L}{{1,4}}\.){{2,}}"),
    ("ref", rf"{_REF_HEAD}\s*{_REF_NUM}"),
    ("abbrev1", rf"{_L}{{2,8}}\."),
    ("symbol", r"§+|¶+"),
    ("number", r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)+(?!\w)"),
    ("word", rf"{_W}+(?:['’]{_W}+)*(?:-{_W}+(?:['’]{_W}+)*)*"),
)


def _compile(rules: Sequence[tuple[str, str]]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in rules))


_TOKEN = _compile(_RULES)
_UNJOINED = _compile([rule for rule in _RULES if rule[0] != "compound"])  # how the parts read on their own
_PAREN = re.compile(r"\([^)]*\)")


@dataclass(frozen=True, slots=True)
class TokenizerConfig:
    stem: bool = True
    stopwords: frozenset[str] = field(default=STOPWORDS)
    canonical: Mapping[str, str] = field(default_factory=lambda: dict(CANONICAL))


DEFAULT_TOKENIZER = TokenizerConfig()


# Tokenising is mostly a lookup. Split on whitespace and remember, per whitespace-delimited
# piece ("agreement,", "(the", "8.1(a)"), the terms the regex gave it: legal text repeats
# its pieces endlessly, and one dict lookup replaces a scan that tries ten alternatives at
# every character. Splitting first gives exactly the terms of one scan over the whole text
# because only two rules can match across whitespace: `$ 5` (money, `\$\s?`: the single
# space is removed before splitting) and `§ 5` / `section 5` (`\s*`: a piece that ends in
# such a head is joined to the next one with one space, which any whitespace run equals).
# Default configuration only: the cache never has to know which configuration made an entry.
_PIECE_CACHE: dict[str, tuple[str, ...]] = {}
_WORD_CACHE: dict[str, tuple[str, ...]] = {}  # for pieces not seen yet: plain words inside them
_CACHE_LIMIT = 200_000
_CACHED_PIECE_CHARS = 64  # longer runs without whitespace are rare and not worth keeping
_OPEN_ENDS = ("§", "¶", "section", "sections", "paragraph", "paragraphs", "para.", "paras.")
_OPEN: tuple[str, ...] = ("<continues into the next piece>",)  # a marker, compared by identity
_DOLLAR_SPACE = re.compile(r"\$\s(?=\d)")


def tokenize(text: str, config: TokenizerConfig = DEFAULT_TOKENIZER) -> list[str]:
    """Lowercased BM25 terms of `text`, in order, sub-tokens right after their token."""
    lowered = fold(text.lower())
    if config is not DEFAULT_TOKENIZER:
        return with_aliases(_scan(lowered, config))
    if "$" in lowered:
        lowered = _DOLLAR_SPACE.sub("$", lowered)  # `$ 5` -> `$5`: the same money terms
    cache = _PIECE_CACHE
    out: list[str] = []
    pending = ""  # pieces ending in a § / section head, waiting for the number that may follow
    for piece in lowered.split():
        terms = cache.get(piece)
        if terms is None:
            terms = _OPEN if piece.endswith(_OPEN_ENDS) else tuple(_scan(piece, config))
            if len(piece) <= _CACHED_PIECE_CHARS:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[piece] = terms
        if pending:
            pending += " " + piece
            if terms is not _OPEN:
                out += _scan(pending, config)
                pending = ""
        elif terms is _OPEN:
            pending = piece
        else:
            out += terms
    if pending:
        out += _scan(pending, config)
    return with_aliases(out)


def _scan(lowered: str, config: TokenizerConfig) -> list[str]:
    """The rules themselves: one regex scan over lowercased text."""
    out: list[str] = []
    cache = _WORD_CACHE if config is DEFAULT_TOKENIZER else None
    for match in _TOKEN.finditer(lowered):
        kind = match.lastgroup
        assert kind is not None
        raw = match.group()
        if kind == "word" and cache is not None:
            terms = cache.get(raw)
            if terms is None:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                terms = cache[raw] = tuple(_word(raw, config))
            out.extend(terms)
        else:
            out.extend(_EMITTERS[kind](raw, config))
    return out


def paragraph_terms(tokens: Sequence[str]) -> list[str]:
    """The paragraph references among `tokens` as the tokenizer writes them ("¶12" for "¶ 12", "paragraph 12",
    "¶¶ 12"), once each, in order."""
    return list(dict.fromkeys(t for t in tokens if len(t) > 1 and t[0] == CANONICAL["paragraph"]))


def term_frequencies(tokens: list[str]) -> dict[str, int]:
    """term -> count: the per-chunk form the BM25 index stores and rebuilds from."""
    return dict(Counter(tokens))


def s_stem(word: str) -> str:
    """Harman's S-stemmer: strip English plural endings, nothing else."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


# --- one emitter per token kind -------------------------------------------------------


def _money(raw: str, _: TokenizerConfig) -> Iterator[str]:
    amount = raw.lstrip("$").strip().replace(",", "")
    if "." in amount:
        whole, cents = amount.split(".", 1)
        amount = whole if cents.strip("0") == "" else amount
    yield "$" + amount
    yield amount


def _caseno(raw: str, _: TokenizerConfig) -> Iterator[str]:
    core = "-".join(raw.split("-")[:3])  # without judge initials such as `-abc`
    emitted = [raw]
    if core != raw:
        emitted.append(core)
    emitted.append(core.split(":", 1)[1])
    emitted += [alias for alias in docket_aliases(raw) if alias not in emitted]
    yield from emitted


def _date(raw: str, _: TokenizerConfig) -> Iterator[str]:
    yield raw
    alias = slash_date_alias(raw)
    if alias:
        yield alias


def _abbrev1(raw: str, config: TokenizerConfig) -> Iterator[str]:
    """A word and its dot: the word's own terms, and what it abbreviates in a case name ("mfg." ->
    "manufacturing")."""
    word = raw[:-1]
    yield from _word(word, config)
    for expansion in case_name_expansions().get(word, ()):
        yield from _plain(expansion, config)


def _verbatim(raw: str, _: TokenizerConfig) -> Iterator[str]:
    yield raw


def _compound(raw: str, config: TokenizerConfig) -> Iterator[str]:
    """A section number whose parts a hyphen joins, read whole: "§ 1.409A-3(i)(5)" -> `§1.409a-3(i)(5)`,
    `1.409a-3(i)(5)`, `1.409a-3(i)`, `1.409a-3`, so "26 CFR 1.409A-3(i)(5)" (no §) meets it. Then the terms
    its parts gave before this rule existed (`§1.409a`, `3(i)(5)`, ...): passages indexed before keep
    meeting the query, and a question naming one part still finds the whole.

    Without a symbol, a dot or a parenthesis it is not read as a section: `21-1234`, `10b-5` and
    `2017-10-31` stay the words they were."""
    number = re.search(rf"{_DOTTED_NUM}(?:-{_DOTTED_NUM})+(?:\({_W}{{1,5}}\))*$", raw)
    assert number is not None
    head = raw[: number.start()].strip()
    whole = number.group()
    if head or "." in whole or "(" in whole:
        if head:
            yield config.canonical.get(head, head[0]) + whole
        parens = _PAREN.findall(whole)
        root = whole[: whole.index("(")] if parens else whole
        for n in range(len(parens), 0, -1):
            yield root + "".join(parens[:n])
        yield root
    for match in _UNJOINED.finditer(raw):
        kind = match.lastgroup
        assert kind is not None
        yield from _EMITTERS[kind](match.group(), config)


def _subsec(raw: str, _: TokenizerConfig) -> Iterator[str]:
    root = raw[: raw.index("(")]
    parens = _PAREN.findall(raw)
    for n in range(len(parens), 0, -1):
        yield root + "".join(parens[:n])
    if "." in root:
        yield from _dotted(root)
    else:
        yield root


def _abbrev(raw: str, config: TokenizerConfig) -> Iterator[str]:
    if raw in config.stopwords:  # e.g., i.e.
        return
    yield raw
    alias = raw.replace(".", "")
    if len(alias) >= 3 and alias not in config.stopwords:
        yield alias


def _ref(raw: str, config: TokenizerConfig) -> Iterator[str]:
    number = re.search(_REF_NUM, raw)
    assert number is not None
    head = raw[: number.start()].strip()
    symbol = config.canonical.get(head, head[0])
    yield symbol
    yield symbol + number.group()
    if "(" in number.group():
        yield from _subsec(number.group(), config)
    else:
        yield from _number(number.group(), config) if "." in number.group() else (number.group(),)


def _symbol(raw: str, config: TokenizerConfig) -> Iterator[str]:
    yield config.canonical.get(raw, raw[0])


def _number(raw: str, _: TokenizerConfig) -> Iterator[str]:
    if "," in raw:
        yield raw.replace(",", "")
    else:
        yield from _dotted(raw)


def _dotted(raw: str) -> Iterator[str]:
    parts = raw.split(".")
    for n in range(len(parts), 1, -1):
        yield ".".join(parts[:n])


def _word(raw: str, config: TokenizerConfig) -> Iterator[str]:
    abbreviated = "'" in raw or "’" in raw
    raw = re.sub(r"['’]s\b", "", raw).replace("'", "").replace("’", "")
    if "-" not in raw:
        yield from _plain(raw, config)
        if abbreviated:  # "ass'n", "dep't", "int'l"
            for expansion in case_name_expansions().get(raw, ()):
                yield from _plain(expansion, config)
    elif any(c.isdigit() for c in raw):
        yield raw  # docket numbers, `10b-5`, phone numbers: whole or not at all
        for alias in (*docket_aliases(raw), bates_word_alias(raw)):
            if alias and alias != raw:
                yield alias
    else:
        parts = [p for p in raw.split("-") if p]
        yield from _plain("".join(parts), config)
        for part in parts:
            yield from _plain(part, config)


def _plain(word: str, config: TokenizerConfig) -> Iterator[str]:
    if word in config.canonical:
        yield config.canonical[word]
        return
    if word in config.stopwords or (len(word) == 1 and not word.isdigit()):
        return
    yield s_stem(word) if config.stem else word


_EMITTERS = {
    "money": _money,
    "caseno": _caseno,
    "compound": _compound,
    "date": _date,
    "subsec": _subsec,
    "reporter": _verbatim,
    "abbrev": _abbrev,
    "abbrev1": _abbrev1,
    "ref": _ref,
    "symbol": _symbol,
    "number": _number,
    "word": _word,
}
