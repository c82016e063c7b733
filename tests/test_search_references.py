"""Exact references that differ only in how they are written (issue 21, class 1): a citation, docket number,
statute, rule, case name, date, amount or Bates number printed one way in a real document and asked another
way ranks its passage first, also when another document's file name shares the question's words (class 2).
A real case on disk, real chunking, BM25, the context graph's citations and the packaged E7 embedder."""

from __future__ import annotations

import pytest

from casetrack.chunk.roles.taxonomy import BY_ID, DECISION
from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest

FILLER = [
    "The parties filed cross-motions addressing the scope of discovery, the timing of expert reports and the "
    "schedule for dispositive motions, and the court heard argument on each of them.",
    "Counsel for both sides agreed that the record was complete and that no further briefing was needed on the "
    "question of the protective order entered earlier in the case.",
    "The court has considered the submissions, the exhibits attached to them and the arguments presented at the "
    "hearing, and it rules as set out in the sections that follow.",
    "Nothing in this order limits the parties' rights under the scheduling order, which remains in effect except "
    "as modified by the deadlines stated in this section.",
]


def _document(title: str, target: str, position: int, sections: int = 6) -> str:
    """A document of `sections` numbered sections of filler, `target` in section `position`."""
    parts = [title]
    for n in range(1, sections + 1):
        body = " ".join(FILLER[(n + i) % len(FILLER)] for i in range(5))
        parts.append(f"{n}. SECTION {n}\n\n{target if n == position else body}")
    return "\n\n".join(parts)


# (file name, printed passage, the question typed another way, distinctive words of the passage)
REFERENCES = [
    ("order-a.txt", "The controlling authority is Smith v. Jones, 547 F. 3d 1001 (8th Cir. 2008), which governs "
     "the waiver question presented here.", "547 F.3d 1001", "controlling authority"),
    ("order-b.txt", "As Roe v. Wade, 410 U. S. 113 (1973), explains, the interest identified there is not absolute.",
     "410 U.S. 113", "interest identified there"),
    ("order-c.txt", "The appeal was docketed as No. 21–1234 and assigned to the panel sitting in June.",
     "docket No. 21-1234", "assigned to the panel sitting"),
    ("order-d.txt", "The claims against Acme Mfg. Co. were severed and transferred to the Western District.",
     "claims against Acme Manufacturing Company", "severed and transferred"),
    ("order-e.txt", "The records fall within the exception of Tex. Gov't Code §552.101(a) and need not be released.",
     "Section 552.101(a)", "need not be released"),
    ("order-f.txt", "Defendant moved to dismiss under Fed. R. Civ. P. 12(b)(6) for failure to state a claim.",
     "Rule 12(b)(6) motion", "failure to state a claim"),
    ("order-g.txt", "The regulation relied on is 8 C.F.R. § 1003.1(d)(3)(ii), which governs the review of facts.",
     "8 CFR 1003.1(d)(3)(ii)", "review of facts"),
    ("order-h.txt", "A related criminal case, No. 8:23-cr-25-VMC-AEP, remains on appeal in the Eleventh Circuit.",
     "8:23-cr-00025", "remains on appeal"),
    ("order-i.txt", "The hearing on the motion for sanctions took place on March 10, 2022 in open court. The motion "
     "is denied.",
     "what happened at the 3/10/2022 hearing", "motion for sanctions"),
    ("order-j.txt", "The settlement fund of $1,500,000 shall be held in escrow until final approval.",
     "$1.5 million settlement fund", "held in escrow"),
    ("order-k.txt", "The invoice produced at ABC 000123 shows the shipment was delayed by two weeks.",
     "document ABC000123", "shipment was delayed"),
    ("order-l.txt", "As alleged in ¶ 12 of the complaint, the defendant knew of the defect before the sale.",
     "paragraph 12 of the complaint", "knew of the defect"),
    ("order-m.txt", "Per Treas. Reg. § 1.409A-3(i)(5) a change in control event is defined narrowly for deferred pay.",
     "26 CFR 1.409A-3(i)(5)", "defined narrowly"),
    ("order-n.txt", "The answer admits the allegations of para. 31 but denies that the notice was ever received.",
     "¶ 31", "notice was ever received"),
]
# Documents whose file names hold the questions' words without the references: a naming that is only evidence
# must not put them first.
DISTRACTORS = {
    "Eighth Circuit State Agreement 547 1001 docket.txt": "State Agreement terms. " * 3,
    "Rule 12 Manufacturing Company order claims.txt": "Manufacturing claims order. " * 3,
    "Settlement fund hearing document section.txt": "Settlement hearing notes. " * 3,
    "Order 12.txt": "Order on the motion to compel. " * 3,
}


@pytest.fixture(scope="module")
def app_and_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, object]:
    folder = tmp_path_factory.mktemp("references")
    app = CaseTrack.open(load_settings(folder / "data"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    case = app.create_case("References")
    files = {name: _document(f"ORDER {i}", target, position=1 + i % 5)
             for i, (name, target, _, _) in enumerate(REFERENCES)}
    files |= {name: _document("NOTES", text + " " + FILLER[0], position=2) for name, text in DISTRACTORS.items()}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        app.ingestor.ingest(case, IngestRequest(str(folder / name)))
    return app, case


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.parametrize(("name", "printed", "asked", "words"), REFERENCES, ids=[r[2] for r in REFERENCES])
def test_a_reference_asked_in_another_form_ranks_its_passage_first(
    app_and_case: tuple[CaseTrack, object], name: str, printed: str, asked: str, words: str
) -> None:
    app, case = app_and_case
    top = app.search.search(case, asked, top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name == name and words in top.text, (top.provenance.document_name, top.text[:80])


@pytest.mark.parametrize("asked", [
    "Eighth Circuit State Agreement: which case is 547 F.3d 1001?",
    "Manufacturing Company order: the Rule 12(b)(6) motion",
    "Settlement fund hearing document: $1.5 million",
    "what does ¶ 12 of the complaint allege",  # a paragraph number names no "Order 12"
])
def test_a_file_name_that_shares_the_questions_words_does_not_bury_the_reference(
    app_and_case: tuple[CaseTrack, object], asked: str
) -> None:
    app, case = app_and_case
    top = app.search.search(case, asked, top_k=5).hits[0].chunk  # type: ignore[arg-type]
    assert top.provenance.document_name.startswith("order-"), top.provenance.document_name


def test_references_and_roles_are_found_in_the_index_files_a_new_server_opens(
    app_and_case: tuple[CaseTrack, object],
) -> None:
    """The folded and `ref:`/`role:` terms are stored with each chunk and written into the case's index files
    (index.segment stores term strings): a new server reading those files, not the store, finds the same."""
    app, case = app_and_case
    app.search.index(case)  # type: ignore[arg-type]  # the files are written at this generation
    reopened = CaseTrack.open(load_settings(app.settings.data_dir))
    same_case = reopened.cases.get(case.id)  # type: ignore[attr-defined]
    assert reopened.search.index(same_case).source == "files"
    for name, _, asked, words in REFERENCES:
        top = reopened.search.search(same_case, asked, top_k=5).hits[0].chunk
        assert top.provenance.document_name == name and words in top.text, asked
    tagged = {role for name, *_ in REFERENCES for _, chunks in reopened.documents.clauses(same_case, name)[1]
              for chunk in chunks for role in chunk.roles}
    assert tagged, "no passage of the orders was tagged with a legal role"
    # an order's passages play parts of a decision, never contract clauses ("held in escrow" is no escrow clause)
    assert {BY_ID[role].family for role in tagged} == {DECISION}, tagged
    for role in tagged:
        hits = reopened.search.search(same_case, "the court", top_k=5, clause_type=role).hits
        assert hits and all(role in hit.chunk.roles for hit in hits), role
