"""``python -m vital_core label``: relabel importance only, keep everything else, name bad lines."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mock_provider import MockProvider
from tests.support.paths import REPO
from vital_core.cli.main import main
from vital_core.results.model import IMPORTANCE_LABELS


def record(query: str, sentences: list[tuple[str, list[str]]], **extra) -> dict:
    n = 0
    decomposition = []
    for sentence, claims in sentences:
        decomp = []
        for text in claims:
            n += 1
            decomp.append({"id": f"S{n}", "text": text, "judgment": True, "importance": "okay"})
        decomposition.append({"sentence": sentence, "decomp": decomp})
    return {"query": query, "response": {"id": "1", "text": " ".join(s for s, _ in sentences)},
            "decomposition": decomposition, "subclaim-importance-order": [], **extra}


RECORDS = [
    record("In a paragraph, could you answer: who wrote hamlet",
           [("Hamlet was written by William Shakespeare.", ["Hamlet was written by William Shakespeare."]),
            ("It is set in Denmark, and it is often performed.",
             ["Hamlet is set in Denmark.", "Hamlet is often performed."])],
           scores={"weighted-precision": 0.5}, N2S={"N0": ["S1"]}),
    record("when was the eiffel tower completed",
           [("The Eiffel Tower was completed in 1889.", ["The Eiffel Tower was completed in 1889."]),
            ("Many tourists visit it.", ["Many tourists visit the Eiffel Tower."])]),
]


def write(path: Path, records, blank_line=False) -> Path:
    lines = [json.dumps(r) for r in records]
    if blank_line:
        lines.insert(1, "")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check_same_except_labels(before: dict, after: dict) -> None:
    assert list(after) == list(before) + ([] if "subclaim-importance-order" in before
                                          else ["subclaim-importance-order"]) + ["labelled_by"]
    assert after["labelled_by"]["format"] == "vital-explorer-labels/1"
    for key in before:
        if key not in ("decomposition", "subclaim-importance-order"):
            assert after[key] == before[key]
    ids = []
    for s_before, s_after in zip(before["decomposition"], after["decomposition"], strict=True):
        assert s_after["sentence"] == s_before["sentence"]
        for c_before, c_after in zip(s_before["decomp"], s_after["decomp"], strict=True):
            assert {k: v for k, v in c_after.items() if k != "importance"} == \
                   {k: v for k, v in c_before.items() if k != "importance"}
            assert c_after["importance"] in IMPORTANCE_LABELS
            ids.append(c_after["id"])
    assert sorted(after["subclaim-importance-order"]) == sorted(ids)


def test_offline_label_rewrites_importance_and_order_only(tmp_path, capsys):
    source = write(tmp_path / "in.jsonl", RECORDS, blank_line=True)
    out = tmp_path / "out.jsonl"
    assert main(["label", str(source), "--backend", "offline", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) == 3 and lines[1] == ""
    after = [json.loads(lines[0]), json.loads(lines[2])]
    for b, a in zip(RECORDS, after):
        check_same_except_labels(b, a)
    hamlet = {c["id"]: c["importance"] for s in after[0]["decomposition"] for c in s["decomp"]}
    assert hamlet["S1"] == "vital" and after[0]["subclaim-importance-order"][0] == "S1"
    eiffel = {c["id"]: c["importance"] for s in after[1]["decomposition"] for c in s["decomp"]}
    assert eiffel["S1"] == "vital"
    assert "2 record(s), 5 subclaim(s)" in capsys.readouterr().out


def test_label_of_the_human_file_keeps_every_record(reference_dir, tmp_path):
    source = reference_dir / "labels" / "human" / "normal.jsonl"
    out = tmp_path / "offline.jsonl"
    assert main(["label", str(source), "--backend", "offline", "--out", str(out)]) == 0
    before = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    after = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(after) == len(before) == 30
    for b, a in zip(before, after):
        check_same_except_labels(b, a)
    labels = [c["importance"] for r in after for s in r["decomposition"] for c in s["decomp"]]
    assert {"vital", "okay", "less-important"} <= set(labels)


@pytest.mark.parametrize("content, message", [
    ('{"query": "q", "decomposition": []}\n{not json\n', "line 2: not valid JSON"),
    ('{"query": "q"}\n', "line 1: field 'decomposition' is missing"),
    ('{"query": "q", "decomposition": [{"sentence": "s", "decomp": [{"text": "x"}]}]}\n',
     "line 1: decomposition[0].decomp[0] needs an 'id'"),
    ('{"decomposition": []}\n', "line 1: field 'query'"),
])
def test_bad_input_names_the_file_and_line(tmp_path, capsys, content, message):
    source = tmp_path / "bad.jsonl"
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["label", str(source), "--backend", "offline", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(source) in err and message in err
    assert not out.exists()


def test_usage_errors(tmp_path, capsys):
    assert main(["label", str(tmp_path / "nope.jsonl"), "--backend", "offline", "--out", "x.jsonl"]) == 2
    assert "no such file" in capsys.readouterr().err
    source = write(tmp_path / "in.jsonl", RECORDS)
    assert main(["label", str(source), "--backend", "offline", "--out", str(source)]) == 2
    assert "must not be the input" in capsys.readouterr().err


def test_openai_backend_labels_through_the_llm_rank_step(tmp_path):
    source = write(tmp_path / "in.jsonl", RECORDS)
    out = tmp_path / "out.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    with MockProvider(answers={"who wrote hamlet": "William Shakespeare"}) as mock:
        env.update({"OPENAI_API_KEY": "sk-test-label-0000", "PYTHONPATH": str(REPO)})
        proc = subprocess.run([sys.executable, "-m", "vital_core", "label", str(source), "--backend", "openai",
                               "--base-url", mock.base_url, "--model", "mock-model", "--no-cache",
                               "--out", str(out)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    after = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for b, a in zip(RECORDS, after, strict=True):
        check_same_except_labels(b, a)
    assert "sk-test-label-0000" not in out.read_text(encoding="utf-8") + proc.stdout + proc.stderr
