"""The `get_status` text (PRD 09 §2.13)."""

from __future__ import annotations

from casetrack.errors import Step, Words, tool_words
from casetrack.render.formats import size
from casetrack.service.status import StatusReport


def status(report: StatusReport, words: Words = tool_words) -> str:
    lines = [f"CaseTrack v{report.version}", "", f"License: {report.tier}",
             f"Active Case: {report.active_case or words(Step('no_active_case'))}", "", "Models:"]
    for emb in report.embedders:
        detail = f" - {emb.detail}" if emb.detail else ""
        lines.append(f"  {emb.label}: {emb.state.capitalize()}{detail}")
    lines += [
        "",
        f"Storage: {report.data_dir}",
        *([f"  Chosen by: {report.data_dir_source}"] if report.data_dir_source else []),
        f"  Models: {size(report.models_bytes)}",
        f"  Cases: {report.case_count} ({size(report.cases_bytes)} total)",
        f"  Total: {size(report.models_bytes + report.cases_bytes)}",
        "",
        "System:",
        f"  RAM: {size(report.process_rss_bytes)} used by CaseTrack / {size(report.system_available_bytes)} "
        f"available of {size(report.system_total_bytes)}",
        f"  OS: {report.os}",
        f"  Memory Mode: {report.memory_mode.capitalize()} ({report.memory_mode_reason})",
        f"  OCR: {report.ocr}",
    ]
    if report.recovered:
        lines += ["", "Recovered at start-up:"] + [f"  - {item}" for item in report.recovered]
    return "\n".join(lines)
