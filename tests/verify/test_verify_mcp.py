"""verify_draft and table_of_authorities through a real `casetrack serve` over stdio, as Claude calls them."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from tests.conftest import EVAL_CASE_NAME, EVAL_DEV
from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of

pytestmark = pytest.mark.anyio
LETTER = EVAL_DEV / "docs" / "ca8_rule_28j_letter_us_v_xiang_2023.pdf"
ORDER = "No order will be effective until accepted by delivery of NETGEAR's order acknowledgment."


def word_draft(path: Path) -> Path:
    """A two-page Word brief: a quotation in curly quotes, a page break, an indented block quotation."""
    document = docx.Document()
    document.add_paragraph("ARGUMENT")
    document.add_paragraph(f"The agreement is plain: \u201c{ORDER}\u201d (NETGEAR Distributor Agreement, p. 2.)")
    document.add_page_break()
    document.add_paragraph("And the order of the Tenth Circuit says:")
    block = document.add_paragraph(
        "Richard P. Liebowitz may show cause in writing within 20 days of the date of this order why he should "
        "not be similarly suspended in this court.")
    block.paragraph_format.left_indent = docx.shared.Inches(1)
    document.add_paragraph("Liebowitz Order at 2.")
    document.save(str(path))
    return path


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_verify_draft_reports_each_quotation_with_its_status_and_the_right_citation(
        eval_dev_data_dir: Path, tmp_path: Path) -> None:
    draft = word_draft(tmp_path / "Brief.docx")
    async with mcp_session(eval_dev_data_dir) as client:
        result = await call_ok(client, "verify_draft", file_path=str(draft), case_name=EVAL_CASE_NAME)
    data = result.structured_content
    assert data is not None and data["draft"] == "Brief.docx" and not data["all_verified"]
    inline, block = data["quotes"]
    assert (inline["status"], inline["draft_page"], inline["block"]) == ("verified", 1, False)
    assert inline["found"]["citation"].startswith("cuad_netgear_distributor_agreement.pdf, p. 2, para. ")
    assert inline["cited"]["resolved"] == "cuad_netgear_distributor_agreement.pdf, p. 2"
    # The block quotation cites page 2 of a one-page order: wrong, and the report says where the words are.
    assert (block["status"], block["draft_page"], block["block"]) == ("wrong_location", 2, True)
    assert block["found"]["citation"].startswith("scan_ca10_order_in_re_liebowitz_2021.pdf, p. 1, para. ")
    assert "1 page(s)" in block["note"]
    text = text_of(result)
    assert "1. VERIFIED (draft p. 1)" in text and "2. WRONG LOCATION (draft p. 2, block quotation)" in text
    assert "The words are at: scan_ca10_order_in_re_liebowitz_2021.pdf, p. 1" in text


async def test_table_of_authorities_lists_each_authority_once_and_writes_a_word_file(
        eval_dev_data_dir: Path, tmp_path: Path) -> None:
    letter = tmp_path / "Xiang 28(j) letter.pdf"
    letter.write_bytes(LETTER.read_bytes())
    async with mcp_session(eval_dev_data_dir) as client:
        result = await call_ok(client, "table_of_authorities", file_path=str(letter), write_docx=True)
        again = await call_ok(client, "table_of_authorities", file_path=str(letter), write_docx=True)
    data = result.structured_content
    assert data is not None
    assert [(e["key"], e["pages"]) for e in data["headings"]["Cases"]] == [("988 F.3d 8", [2]),
                                                                          ("2023 WL 128600", [1, 2])]
    assert [(e["key"], e["pages"]) for e in data["headings"]["Rules"]] == [("Fed. R. App. P. 28(j)", [1])]
    written = Path(data["docx_path"])
    assert written == eval_dev_data_dir / "tables" / "Xiang 28(j) letter - Table of Authorities.docx"
    paragraphs = [p.text for p in docx.Document(str(written)).paragraphs]
    assert paragraphs[0] == "TABLE OF AUTHORITIES"
    assert "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021)\t2" in paragraphs
    # Asked again, the first file is kept and a second written next to it.
    assert again.structured_content is not None
    assert Path(again.structured_content["docx_path"]).name == "Xiang 28(j) letter - Table of Authorities (2).docx"
    assert "Alasaad v. Mayorkas, 988 F.3d 8 (1st Cir. 2021) ......" in text_of(result)


async def test_the_tools_say_what_went_wrong_and_what_to_do(data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "brief.rtf").write_text("{\\rtf1 x}", encoding="utf-8")
    async with mcp_session(data_dir) as client:
        no_case = await call_error(client, "verify_draft", text='"Quoted words here for sure." Compl. at 2.')
        missing = await call_error(client, "table_of_authorities", file_path=str(tmp_path / "nope.docx"))
        rtf = await call_error(client, "table_of_authorities", file_path=str(tmp_path / "brief.rtf"))
        both = await call_error(client, "table_of_authorities", text="x", file_path=str(tmp_path / "brief.rtf"))
        pasted = await call_error(client, "table_of_authorities", text="See 42 U.S.C. \u00a7 1983.",
                                  output_path=str(tmp_path / "table.txt"))
    assert no_case.startswith("No active case.") and "create_case" in no_case
    assert missing.startswith("File not found:")
    assert "Unsupported file format: .rtf" in rtf and ".docx" in rtf
    assert "either as text or as file_path" in both
    assert "output_path must name a .docx file (got table.txt)" in pasted
