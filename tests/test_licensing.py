"""Licences and tiers (PRD 10 §8.2, §11): offline ed25519 keys, Free fallback, Free limits, Pro tools.

Keys here are signed by a throwaway key pair, made trusted through CaseTrack's
`licence_public_key` parameter (in-process) or tests/trusted_key_launcher.py (subprocesses);
the product key's private half is not in this repository."""

from __future__ import annotations

import base64
import os
import re
import runpy
import sys
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from mcp import Client
from nacl.signing import SigningKey
from typer.testing import CliRunner

from casetrack.cli.app import app as cli_app
from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.embed import LicenseTier
from casetrack.errors import FreeTierLimit
from casetrack.mcp.server import build_server
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest
from casetrack.store.case_store import CaseStore
from casetrack.store.stats import put_stats
from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of, trusted_key_env

REPO = Path(__file__).resolve().parents[1]
CASE_LIMIT_TEXT = ("Free tier allows 3 cases (you have 3). Delete a case or upgrade to Pro for unlimited cases: "
                   "https://casetrack.legal/upgrade")
DOC_LIMIT_TEXT = ("Free tier allows 100 documents per case (you have 100). Delete a document or upgrade to Pro for "
                  "unlimited documents per case: https://casetrack.legal/upgrade")


@pytest.fixture(scope="module")
def signer() -> SigningKey:
    return SigningKey.generate()


def key_for(signer: SigningKey, plan: str = "PRO", expires: date | None = None) -> str:
    return licensing.issue(licensing.Claims(plan, expires, 1, licensing.new_serial()), bytes(signer))


def make_app(data_dir: Path, signer: SigningKey, key: str | None) -> CaseTrack:
    settings = replace(load_settings(data_dir, environ={}), license_key=key)
    return CaseTrack.open(settings, licence_public_key=bytes(signer.verify_key))


def contract(folder: Path, n: int = 1) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"agreement_{n}.txt"
    path.write_text(f"MASTER SERVICES AGREEMENT {n}\n\n1. Term. This Agreement between Acme Corp and Beta LLC "
                    f"starts on 1 March 2024.\n\n2. Termination. Either party may terminate on {n + 10} days' "
                    "written notice to the other party.\n", encoding="utf-8")
    return path


# --- the key format ------------------------------------------------------------------


def test_a_key_has_the_prd_shape_and_verifies_offline_even_retyped(signer: SigningKey) -> None:
    key = key_for(signer, "FIRM", date(2031, 5, 1))
    tier, a, b, c, sig = key.split("-")
    assert tier == "FIRM" and len(a) == len(b) == len(c) == 6 and len(sig) == 103
    claims = licensing.verify(key, bytes(signer.verify_key))
    assert (claims.plan, claims.expires) == ("FIRM", date(2031, 5, 1))
    # Lower case, spaces and Crockford look-alikes (O for 0) typed by a human still verify.
    retyped = " ".join(key.lower().replace("0", "o")[i:i + 20] for i in range(0, len(key), 20))
    assert licensing.verify(retyped, bytes(signer.verify_key)) == claims


@pytest.mark.parametrize("case", ["tampered", "foreign", "expired", "wrong_tier", "garbage"])
def test_a_bad_key_falls_back_to_free_with_its_reason(case: str, signer: SigningKey, data_dir: Path) -> None:
    good = key_for(signer)
    yesterday = date.today() - timedelta(days=1)
    key, reason = {
        "tampered": (good[:7] + ("X" if good[7] != "X" else "Y") + good[8:], "did not pass verification"),
        "foreign": (key_for(SigningKey.generate()), "did not pass verification"),
        "expired": (key_for(signer, expires=yesterday), f"expired on {yesterday.isoformat()}"),
        "wrong_tier": (key_for(signer, "TRIAL"), 'is for the "Trial" tier, which this version of CaseTrack does not'),
        "garbage": ("PRO-123", "is not a CaseTrack licence key (they look like TIER-XXXXXX-XXXXXX-XXXXXX-SIG)"),
    }[case]
    app = make_app(data_dir, signer, key)
    assert app.tier is LicenseTier.FREE and app.pool.tier is LicenseTier.FREE
    assert app.licence.problem is not None and reason in app.licence.problem
    assert app.status().tier.startswith("Free (") and reason in app.status().tier
    with pytest.raises(licensing.ProFeature) as refused:
        licensing.require_pro(app.licence, "find_entity")
    assert reason in refused.value.message and "https://casetrack.legal/upgrade" in refused.value.message


def test_no_key_is_the_free_tier_and_the_product_key_rejects_keys_it_did_not_sign(signer: SigningKey,
                                                                                  data_dir: Path) -> None:
    assert make_app(data_dir, signer, None).licence == licensing.FREE
    product = CaseTrack.open(replace(load_settings(data_dir, environ={}), license_key=key_for(signer)))
    assert product.tier is LicenseTier.FREE and "did not pass verification" in (product.licence.problem or "")


# --- Pro tools and get_status over MCP ---------------------------------------------------


@pytest.mark.anyio
async def test_a_valid_pro_key_unlocks_pro_tools_and_free_gets_the_upgrade_message(signer: SigningKey,
                                                                                   tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    first, second = contract(docs, 1), contract(docs, 2)
    pro = make_app(tmp_path / "pro", signer, key_for(signer, expires=date.today() + timedelta(days=30)))
    assert pro.tier is LicenseTier.PRO and pro.pool.tier is LicenseTier.PRO
    async with Client(build_server(pro)) as client:
        await call_ok(client, "create_case", name="Pro Case")
        for path in (first, second):
            await call_ok(client, "ingest_document", file_path=str(path))
        status = text_of(await call_ok(client, "get_status"))
        assert "License: Pro\n" in status
        found = await call_ok(client, "find_entity", entity="Acme Corp")
        assert re.search(r" names? it, ", text_of(found)) and found.structured_content["exact_mentions"] >= 1
        compared = await call_ok(client, "compare_documents", document_a=first.name, document_b=second.name,
                                 topic="termination notice")
        assert "=== Document A: agreement_1.txt" in text_of(compared)

    free = make_app(tmp_path / "free", signer, None)
    async with Client(build_server(free)) as client:
        await call_ok(client, "create_case", name="Free Case")
        await call_ok(client, "ingest_document", file_path=str(first))
        assert "License: Free\n" in text_of(await call_ok(client, "get_status"))
        for tool, args in (("find_entity", {"entity": "Acme Corp"}),
                           ("compare_documents", {"document_a": "a", "document_b": "b", "topic": "t"})):
            message = await call_error(client, tool, **args)
            assert message.startswith(f"{tool} is part of CaseTrack Pro; this CaseTrack runs on the Free tier.")
            assert "casetrack licence activate" in message
        # Free search still works: the two stages of the free tier.
        await call_ok(client, "search_case", query="termination notice")


def test_free_search_runs_two_stages_even_on_a_case_pro_indexed(signer: SigningKey, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    pro = make_app(tmp_path / "data", signer, key_for(signer))
    case = pro.create_case("Shared")
    for n in (1, 2):
        pro.ingestor.ingest(case, IngestRequest(str(contract(docs, n))))
    assert "E8" in pro.pool.available()  # the packaged Pro embedder: Pro boosts with it
    assert "boost" in pro.search.search(pro.cases.resolve("Shared"), "termination notice", 5).stages_used
    free = make_app(tmp_path / "data", signer, None)
    response = free.search.search(free.cases.resolve("Shared"), "termination notice", 5)
    # Free ranks by its own two signals' fusion (and the evidence prior every tier has), never by Pro's stages.
    assert response.stages_used[:2] == ("recall", "rrf") and not {"boost", "colbert"} & set(response.stages_used)
    assert "E8" not in response.signals and response.hits


# --- Free limits -------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_fourth_free_case_is_refused_with_the_prd_text(signer: SigningKey, tmp_path: Path) -> None:
    free = make_app(tmp_path / "free", signer, None)
    async with Client(build_server(free)) as client:
        for n in range(3):
            await call_ok(client, "create_case", name=f"Matter {n}")
        assert await call_error(client, "create_case", name="Matter 3") == CASE_LIMIT_TEXT
    assert len(free.list_cases("all")) == 3
    pro = make_app(tmp_path / "free", signer, key_for(signer))  # same data, now Pro
    pro.create_case("Matter 3")
    assert len(pro.list_cases("all")) == 4


def test_two_processes_racing_for_the_last_free_case_slot_get_one_case_between_them(
        signer: SigningKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = make_app(tmp_path / "data", signer, None)
    theirs = make_app(tmp_path / "data", signer, None)  # the other server on the same data directory
    for n in range(2):
        mine.create_case(f"Matter {n}")
    initialise = CaseStore.initialise

    def the_other_wins_meanwhile(store: CaseStore, case: Case) -> None:
        monkeypatch.setattr(CaseStore, "initialise", initialise)
        theirs.create_case("Their matter")  # passes its check while ours is half done
        initialise(store, case)

    monkeypatch.setattr(CaseStore, "initialise", the_other_wins_meanwhile)
    with pytest.raises(FreeTierLimit) as refused:
        mine.create_case("My matter")
    assert refused.value.message == CASE_LIMIT_TEXT
    assert sorted(c.name for c in mine.list_cases("all")) == ["Matter 0", "Matter 1", "Their matter"]
    assert len(list((tmp_path / "data" / "cases").iterdir())) == 3  # the refused case left no folder


def _set_document_count(app: CaseTrack, name: str, count: int) -> None:
    case = app.cases.resolve(name)
    store = app.cases.store(case)
    with store.writer("test") as db:
        batch = db.batch()
        stats = replace(case.stats, document_count=count)
        put_stats(batch, stats)
        db.write(batch)


def test_the_101st_free_document_is_refused_before_parsing_and_pro_has_no_cap(signer: SigningKey,
                                                                            tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    free = make_app(tmp_path / "data", signer, None)
    case = free.create_case("Big Case")
    _set_document_count(free, "Big Case", 99)  # as if 99 documents were in: the real ingest path checks the count
    free.ingestor.ingest(case, IngestRequest(str(contract(docs, 1))))  # the 100th is fine
    with pytest.raises(FreeTierLimit) as refused:
        free.ingestor.ingest(case, IngestRequest(str(contract(docs, 2))))
    assert refused.value.message == DOC_LIMIT_TEXT
    assert free.case_info("Big Case").stats.document_count == 100
    pro = make_app(tmp_path / "data", signer, key_for(signer))
    pro.ingestor.ingest(case, IngestRequest(str(contract(docs, 2))))
    assert pro.case_info("Big Case").stats.document_count == 101


@pytest.mark.slow
def test_a_free_case_really_takes_100_small_documents_and_refuses_the_101st(signer: SigningKey,
                                                                            tmp_path: Path) -> None:
    free = make_app(tmp_path / "data", signer, None)
    case = free.create_case("Hundred")
    for n in range(100):
        free.ingestor.ingest(case, IngestRequest(str(contract(tmp_path / "docs", n))))
    with pytest.raises(FreeTierLimit) as refused:
        free.ingestor.ingest(case, IngestRequest(str(contract(tmp_path / "docs", 100))))
    assert refused.value.message == DOC_LIMIT_TEXT


# --- where keys come from -------------------------------------------------------------------


def test_licence_activate_stores_the_key_and_later_starts_are_pro(signer: SigningKey, data_dir: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(licensing, "PRODUCT_PUBLIC_KEY", bytes(signer.verify_key))
    key = key_for(signer, expires=date(2032, 1, 31))
    runner = CliRunner()
    bad = runner.invoke(cli_app, ["--data-dir", str(data_dir), "licence", "activate", key[:-3] + "AAA"])
    assert bad.exit_code == 2 and "did not pass verification" in bad.output
    assert not (data_dir / licensing.LICENCE_FILE).exists()

    done = runner.invoke(cli_app, ["--data-dir", str(data_dir), "licence", "activate", key.lower()])
    assert done.exit_code == 0, done.output
    assert "Licence activated: CaseTrack Pro, valid until 2032-01-31" in done.output
    assert (data_dir / licensing.LICENCE_FILE).exists()
    app = CaseTrack.open(load_settings(data_dir, environ={}))
    assert app.tier is LicenseTier.PRO and app.licence.source == "activated"
    shown = runner.invoke(cli_app, ["--data-dir", str(data_dir), "licence", "status"])
    assert "License: Pro" in shown.output and "Valid until: 2032-01-31" in shown.output
    # A key given by flag or environment takes precedence; a bad one means Free, never an error.
    flagged = runner.invoke(cli_app, ["--data-dir", str(data_dir), "--licence-key", "PRO-nonsense", "licence",
                                      "status"])
    assert flagged.exit_code == 0 and "License: Free" in flagged.output and "Not accepted:" in flagged.output
    env_settings = load_settings(data_dir, environ={"CASETRACK_LICENSE_KEY": key_for(signer, "FIRM")})
    assert CaseTrack.open(env_settings).licence.plan == "Firm"
    assert runner.invoke(cli_app, ["--data-dir", str(data_dir), "licence", "deactivate"]).exit_code == 0
    assert CaseTrack.open(load_settings(data_dir, environ={})).tier is LicenseTier.FREE


def test_a_broken_licence_file_never_stops_casetrack(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / licensing.LICENCE_FILE).write_text("{not json", encoding="utf-8")
    assert CaseTrack.open(load_settings(data_dir, environ={})).licence == licensing.FREE


def test_the_product_key_rejects_a_key_it_did_not_sign_from_the_cli(signer: SigningKey, data_dir: Path) -> None:
    result = CliRunner().invoke(cli_app, ["--data-dir", str(data_dir), "--licence-key", key_for(signer), "licence",
                                          "status"])
    assert result.exit_code == 0 and "License: Free" in result.stdout and "did not pass verification" in result.stdout


@pytest.mark.anyio
async def test_a_served_casetrack_reads_its_licence_key_from_the_environment(signer: SigningKey,
                                                                                     data_dir: Path) -> None:
    async with mcp_session(data_dir, **trusted_key_env(signer, key_for(signer))) as client:
        assert "License: Pro\n" in text_of(await call_ok(client, "get_status"))



def _issue(monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", ["issue_licence.py", *args])
    runpy.run_path(str(REPO / "scripts" / "issue_licence.py"), run_name="__main__")


def test_issue_licence_script_signs_with_a_private_key_kept_outside_the_repository(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "signing.key"
    _issue(monkeypatch, "--new-key-pair", str(secret))
    public = base64.b64decode(capsys.readouterr().out.strip())
    assert os.name != "posix" or secret.stat().st_mode & 0o777 == 0o600
    _issue(monkeypatch, "--private-key", str(secret), "--tier", "firm", "--expires", "2030-12-31", "--seats", "5")
    claims = licensing.verify(capsys.readouterr().out.strip(), public)
    assert (claims.plan, claims.expires, claims.seats) == ("FIRM", date(2030, 12, 31), 5)
    inside = REPO / "tests" / ".tmp-signing.key"
    try:
        inside.write_text(secret.read_text(encoding="utf-8"), encoding="utf-8")
        with pytest.raises(SystemExit, match="outside the repository"):
            _issue(monkeypatch, "--private-key", str(inside))
    finally:
        inside.unlink()


def test_a_self_signed_key_stays_free_whatever_the_environment_says(signer: SigningKey, data_dir: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing in the environment can replace the built-in verifying key (that would let anyone sign keys)."""
    monkeypatch.setenv("CASETRACK_LICENSE_PUBLIC_KEY", base64.b64encode(bytes(signer.verify_key)).decode())
    monkeypatch.setenv("CASETRACK_LICENSE_KEY", key_for(signer))
    app = CaseTrack.open(load_settings(data_dir))
    assert app.tier is LicenseTier.FREE
