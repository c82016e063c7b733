"""verify_draft on drafts quoting the real eval-dev documents: right quotations verified, wrong ones caught.

The drafts are built from the documents' reference texts (what a lawyer reading the document would
copy), by benchmarks/verify_drafts.py, and checked against the eval-dev case as CaseTrack ingested it
(PDF text layers, Word and text files, OCR'd scans)."""

from __future__ import annotations

import collections
from pathlib import Path

from benchmarks.verify_drafts import Planted, draft_text, load_set, plant

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.verify.drafts import Verification, read_draft
from casetrack.store import documents as docstore
from casetrack.verify.model import QuoteCheck, Status
from tests.conftest import EVAL_CASE_NAME, EVAL_DEV


def verify(data_dir: Path, draft: Path) -> Verification:
    app = CaseTrack.open(load_settings(data_dir, log_level="WARNING"))
    return app.verifier.verify(app.cases.resolve(EVAL_CASE_NAME), read_draft(file_path=str(draft)))


def matched(planted: list[Planted], checks: tuple[QuoteCheck, ...]) -> list[tuple[Planted, QuoteCheck]]:
    """Each planted quotation with the check of the same quotation (the draft's order is the plants' order)."""
    assert len(checks) == len(planted)
    pairs = list(zip(planted, checks, strict=True))
    for p, q in pairs:
        assert " ".join(q.quote.split()).rstrip(".,") == " ".join(p.quote.split()).rstrip(".,")
    return pairs


def test_a_draft_quoting_eval_dev_rightly_and_wrongly_gets_every_status_right(
        eval_dev_data_dir: Path, tmp_path: Path) -> None:
    planted = plant(load_set(EVAL_DEV))
    kinds = collections.Counter(p.kind for p in planted)
    # Every kind of quotation the issue names is in the draft, several times.
    assert {k for k, n in kinds.items() if n >= 5} >= {"correct", "ellipsis", "bracket", "wrong_page",
                                                         "wrong_document", "shall_may", "number", "negation",
                                                         "invented"}
    draft = tmp_path / "brief.txt"
    draft.write_text(draft_text(planted), encoding="utf-8")
    checks = verify(eval_dev_data_dir, draft).report.quotes
    wrong = [(p.kind, p.expected, q.status.value, p.quote[:80]) for p, q in matched(planted, checks)
             if not p.right(q.status.value)]
    assert wrong == []
    for p, q in matched(planted, checks):
        if p.kind in ("shall_may", "number", "negation", "invented", "wrong_page", "wrong_document"):
            assert q.status is not Status.VERIFIED, p
        if q.status is Status.DIFFERS and not p.scanned:
            assert q.differences and q.found is not None and q.found.document_name == p.source, p
        if q.status is Status.WRONG_LOCATION:
            assert q.found is not None and q.found.document_name == p.source
            assert q.found.text and q.found.citation.startswith(p.source)


def test_one_changed_word_is_shown_word_by_word_at_the_place_it_was_quoted_from(
        eval_dev_data_dir: Path, tmp_path: Path) -> None:
    draft = tmp_path / "brief.md"
    draft.write_text(
        'Section 3 says: "Orders for less than minimum or non-standard lot size quantities of any Product shall, '
        "at NETGEAR's discretion, be rejected.\" (NETGEAR Distributor Agreement, p. 2.)\n\n"
        "And the court said Liebowitz \u201cmay show cause in writing within 30 days of the date of this order why "
        "he should be similarly suspended in this court.\u201d Liebowitz Order at 1.\n", encoding="utf-8")
    shall, order = verify(eval_dev_data_dir, draft).report.quotes
    assert shall.status is Status.DIFFERS
    assert [(d.quote, d.source) for d in shall.differences] == [("shall", "may")]
    assert shall.found is not None and shall.found.page == 2
    assert shall.found.citation.startswith("cuad_netgear_distributor_agreement.pdf, p. 2, para. ")
    assert "may, at NETGEAR's discretion, be rejected" in " ".join(shall.found.text.split())
    assert shall.cited is not None and shall.cited.resolved == "cuad_netgear_distributor_agreement.pdf, p. 2"
    assert order.status is Status.DIFFERS
    differences = {(d.quote, d.source) for d in order.differences}
    assert ("", "not") in differences  # the quotation leaves out "not"
    assert ("30", "within.20") in differences or any(d.quote == "30" for d in order.differences)
    assert not order.ocr_noise  # a number and a negation are no scanning accident


def test_a_scan_is_quoted_as_its_ocr_reads_and_ocr_noise_is_named(eval_dev_data_dir: Path, tmp_path: Path) -> None:
    app = CaseTrack.open(load_settings(eval_dev_data_dir, log_level="WARNING"))
    case = app.cases.resolve(EVAL_CASE_NAME)
    with app.cases.store(case).reader() as db:
        scan = next(d for d in docstore.list_documents(db) if d.name == "scan_ca10_order_in_re_liebowitz_2021.pdf")
        ocr_text = " ".join(docstore.page(db, scan.id, 1).text.split())  # type: ignore[union-attr]
    as_read = ocr_text[ocr_text.index("This court has been advised"):ocr_text.index(" Consequently")]
    truth = (EVAL_DEV / "text" / "scan_ca10_order_in_re_liebowitz_2021.pdf.txt").read_text(encoding="utf-8")
    flat_truth = " ".join(truth.split())
    true_sentence = flat_truth[flat_truth.index("A copy of the court"):flat_truth.index(" The Plan is")]
    assert true_sentence not in ocr_text  # the OCR misread this one ("Acopy", "cal0")
    draft = tmp_path / "brief.txt"
    draft.write_text(f'The order recites that "{as_read}" In re Liebowitz Order, p. 1.\n\n'
                     f'It adds: "{true_sentence}" In re Liebowitz Order, p. 1.\n', encoding="utf-8")
    as_ocr, true = verify(eval_dev_data_dir, draft).report.quotes
    assert as_ocr.status is Status.VERIFIED
    assert as_ocr.found is not None and as_ocr.found.ocr
    assert true.status is Status.DIFFERS
    assert true.ocr_noise and "OCR" in true.note
    assert true.found is not None and true.found.page == 1 and true.found.ocr
