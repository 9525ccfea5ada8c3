"""The Python API: vital_core.evaluate / vital_core.load, and the README's example."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import vital_core
from tests.support.paths import REPO
from vital_core.metrics.catalog import METRICS
from vital_core.results.dataset import load_dataset

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"


def test_evaluate_equals_score_then_report(tmp_path: Path):
    out = tmp_path / "scored.jsonl"
    proc = subprocess.run([sys.executable, "-m", "vital_core", "score", str(DEMO_INPUT), "--out", str(out),
                           "--backend", "offline"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    expected = load_dataset(out, use_cache=False).frame.set_index(["example_id", "condition"])
    records = [__import__("json").loads(line) for line in DEMO_INPUT.read_text().splitlines() if line.strip()]
    got = vital_core.evaluate(records).set_index(["example_id", "condition"])
    assert len(got) == len(expected) == 36
    for key in METRICS:
        a = got[key].to_numpy(float)
        b = expected.loc[got.index, key].astype("Float64").astype(float).to_numpy()
        assert np.allclose(a, b, equal_nan=True, atol=1e-12), key
    # undefined metrics say why, and a defined one never does (F1@K's K comes from the whole set)
    row = got.iloc[0]
    for key in [k for k in METRICS if k != "f1_at_k"]:
        assert (f"{key}: " in row["undefined"]) == bool(np.isnan(row[key])), key


@pytest.mark.parametrize("id_name, condition_name", [("example_id", "condition"), ("id", "variant")])
def test_evaluate_takes_a_dataframe_and_names_bad_input(id_name, condition_name):
    """The frame in and out names an example and its condition as report --json and --export do; the
    earlier names ``id`` / ``variant`` are still read."""
    frame = pd.DataFrame({id_name: ["q1", "q1"], condition_name: ["normal", "wrong"],
                          "query": ["Who wrote Emma?"] * 2,
                          "response": ["Jane Austen wrote Emma.", "Charlotte Bronte wrote Emma."],
                          "documents": ["Emma is a novel by Jane Austen."] * 2})
    got = vital_core.evaluate(frame)
    assert list(got["example_id"]) == ["q1", "q1"] and list(got["condition"]) == ["normal", "wrong"]
    assert got["factscore_precision"].notna().all() and "id" not in got and "variant" not in got
    with pytest.raises(ValueError, match="both 'example_id' and 'id'"):
        vital_core.evaluate(frame.assign(example_id="a", id="b"))
    with pytest.raises(ValueError, match="needs the column"):
        vital_core.evaluate(pd.DataFrame({"query": ["q"]}))
    with pytest.raises(ValueError, match="appears twice"):
        vital_core.evaluate([{"id": "a", "query": "q", "responses": {"normal": "x."}}] * 2)
    with pytest.raises(Exception, match="record 1|line 1"):
        vital_core.evaluate([{"query": "q", "responses": "not an object"}])


def test_readme_python_example_runs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "factscore_precision" in proc.stdout and "wrong" in proc.stdout


def test_the_api_frame_under_each_convention(reference_dir: Path, tmp_path: Path):
    """``vital_core.table``: strict leaves a never-judged response's verdict metrics undefined with the
    reason; paper keeps the authors' 0; both name the example and condition as the export does."""
    from vital_core.metrics.catalog import FROM_VERDICTS
    dataset = vital_core.load(reference_dir / "gpt-4o", cache_dir=tmp_path)
    strict, paper = vital_core.table(dataset), vital_core.table(dataset, "paper")
    assert list(strict.columns[:3]) == ["example_id", "index", "condition"]
    blank = (strict["n_not_judged"] == strict["n_subclaims"]) & (strict["n_subclaims"] > 0)
    assert blank.sum() == 36
    verdict_keys = [k for k in FROM_VERDICTS if k in strict]
    assert strict.loc[blank, verdict_keys].isna().all(axis=None)
    assert strict.loc[blank, "undefined"].str.contains("vital_precision: not judged").all()
    assert (paper.loc[blank, "factscore_precision"] == 0).all()
    assert (paper.loc[blank & (paper["n_vital"] > 0), "rlp"] == 1).all()      # the authors' 0 flags RLP
    pd.testing.assert_frame_equal(strict.loc[~blank, verdict_keys], paper.loc[~blank, verdict_keys])
    with pytest.raises(ValueError, match="unknown convention"):
        vital_core.table(dataset, "lenient")


def test_an_unknown_convention_is_refused_before_anything_is_scored(monkeypatch):
    from vital_core import api

    def never(*args, **kwargs):
        raise AssertionError("scored before the convention was checked")
    monkeypatch.setattr(api, "score_examples", never)
    with pytest.raises(ValueError, match="unknown convention 'papers'"):
        vital_core.evaluate([{"query": "q", "responses": {"normal": "a"}}], conventions="papers")
