"""Every command reads its inputs alike (issue 23): a UTF-8 byte order mark is accepted by report, agreement
and label as by score; a binary or huge sparse file is named as binary from its first bytes, without
reading it whole; evidence text followed by NUL bytes or binary data is named as binary; a JSON evidence line
holding U+2028 is read; and two subclaims with one id are refused on every path, naming file and line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.logic.evidence_input import documents_from_jsonl, documents_from_upload
from explorer.logic.text_files import decode_text
from tests.support.paths import REPO
from tests.support.release_fixture import make_release
from vital_core.files.errors import InputError

DEMO_RESULTS = REPO / "data" / "demo" / "demo_results.jsonl"
BOM = b"\xef\xbb\xbf"


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vital_core", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def with_bom(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(BOM + src.read_bytes())
    return dst


def label_file(path: Path) -> Path:
    rec = {"query": "who wrote hamlet", "decomposition": [{"sentence": "Shakespeare wrote Hamlet.", "decomp": [
        {"id": "S1", "text": "Shakespeare wrote Hamlet.", "importance": "vital"},
        {"id": "S2", "text": "Hamlet is a play.", "importance": "okay"}]}],
        "subclaim-importance-order": ["S1", "S2"]}
    path.write_text(json.dumps(rec) + "\n")
    return path


# ---------------------------------------------------------------- a byte order mark, on every command

def test_report_reads_a_results_file_and_a_release_with_a_bom(tmp_path):
    plain = cli("report", DEMO_RESULTS, "--no-cache", "--json")
    bommed = cli("report", with_bom(DEMO_RESULTS, tmp_path / "r.jsonl"), "--no-cache", "--json")
    assert bommed.returncode == 0, bommed.stderr
    assert json.loads(bommed.stdout)["conditions"] == json.loads(plain.stdout)["conditions"]
    release = make_release(tmp_path / "release")
    for f in release.rglob("*.jsonl"):
        f.write_bytes(BOM + f.read_bytes())
    done = cli("report", release, "--no-cache")
    assert done.returncode == 0, done.stderr


def test_agreement_and_label_read_a_bom(tmp_path):
    plain = label_file(tmp_path / "a.jsonl")
    bommed = with_bom(plain, tmp_path / "b.jsonl")
    agree = cli("agreement", bommed, plain)
    assert agree.returncode == 0, agree.stderr
    label = cli("label", bommed, "--out", tmp_path / "out.jsonl", "--backend", "offline")
    assert label.returncode == 0, label.stderr


# ---------------------------------------------------------------- binary and huge inputs

@pytest.mark.parametrize("command", ["score", "report", "agreement", "label"])
def test_a_2gb_sparse_file_is_named_binary_without_being_read(tmp_path, command):
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as handle:
        handle.truncate(2 * 2 ** 30)          # sparse: no disk used
    args = {"score": ["--out", tmp_path / "o.jsonl", "--backend", "offline"],
            "report": ["--no-cache"], "agreement": [label_file(tmp_path / "l.jsonl")],
            "label": ["--out", tmp_path / "o.jsonl", "--backend", "offline"]}[command]
    done = subprocess.run([sys.executable, "-c", "import resource, runpy, sys; sys.argv = sys.argv[1:]; "
                           "resource.setrlimit(resource.RLIMIT_DATA, (1 << 30, 1 << 30)); "
                           "runpy.run_module('vital_core', run_name='__main__')",
                           "vital_core", command, huge, *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode in (1, 2), done.stderr
    assert f"{huge} is not a text file (it holds binary data)" in done.stderr
    assert "codec" not in done.stderr and "unexpected" not in done.stderr and "MemoryError" not in done.stderr


def test_evidence_text_followed_by_nul_bytes_or_binary_is_named_binary_not_empty():
    text = b"The tower was completed in 1889.\n" * 400            # longer than the sample looked at first
    for tail in (b"\x00" * 4096, bytes(range(256)) * 64):
        with pytest.raises(InputError, match="notes.txt is not a text file"):
            decode_text("notes.txt", text + tail)
    assert decode_text("cafe.txt", "café au lait".encode("latin-1")) == "café au lait"   # Latin-1 text stays


def test_an_evidence_line_holding_u2028_is_one_document():
    line = json.dumps({"id": "d1", "text": "first part\u2028second part"}, ensure_ascii=False)
    docs = documents_from_jsonl(line + "\r\n" + json.dumps("another") + "\n", "ev.jsonl")
    assert [d.text for d in docs] == ["first part\u2028second part", "another"]
    assert documents_from_upload("ev.jsonl", line)[0].text == "first part\u2028second part"


# ---------------------------------------------------------------- duplicate subclaim ids

def test_a_results_file_with_two_subclaims_of_one_id_is_refused_naming_file_and_line(tmp_path):
    lines = DEMO_RESULTS.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[1])
    claims = rec["variants"]["normal"]["subclaims"]
    claims[1]["id"] = claims[0]["id"]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([lines[0], json.dumps(rec)] + lines[2:]) + "\n", encoding="utf-8")
    for args in (["report", edited, "--no-cache"], ["score", edited, "--out", tmp_path / "o.jsonl",
                                                    "--backend", "offline"]):
        done = cli(*args)
        assert done.returncode in (1, 2) and f"{edited} line 2" in done.stderr, done.stderr
        assert f"id {claims[0]['id']!r} is used by items 1 and 2" in done.stderr
    assert not (tmp_path / "o.jsonl").exists()


def test_a_release_record_with_two_claims_of_one_id_is_refused(tmp_path):
    release = make_release(tmp_path / "release")
    f = next(release.glob("*/*/normal/new-metric-out.jsonl"))
    rows = f.read_text().splitlines()
    rec = json.loads(rows[0])
    claims = [c for s in rec["decomposition"] for c in s["decomp"]]
    claims[2]["id"] = claims[0]["id"]
    f.write_text("\n".join([json.dumps(rec)] + rows[1:]) + "\n")
    done = cli("report", release, "--no-cache")
    assert done.returncode == 1 and f"{f} line 1" in done.stderr and "is used by items 1 and 3" in done.stderr
    skipped = cli("report", release, "--no-cache", "--skip-bad")
    assert skipped.returncode == 0 and "skipped 1 bad record" in skipped.stderr
