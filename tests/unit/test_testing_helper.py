"""vital_core.testing: assert_notices / assert_metrics for a team's own regression tests."""
from __future__ import annotations

import json

import pytest

from tests.support.paths import REPO
from vital_core.testing import assert_metrics, assert_notices

DEMO_INPUT = REPO / "data" / "demo" / "demo_input.jsonl"


@pytest.fixture(scope="module")
def planets() -> dict:
    """demo-01: eight planets (normal), nine (wrong), the count left out (missing), with its documents."""
    return json.loads(DEMO_INPUT.read_text(encoding="utf-8").splitlines()[0])


def test_passes_when_vital_notices_the_damaged_answers(planets):
    frame = assert_notices(planets["responses"]["normal"], wrong=planets["responses"]["wrong"],
                           missing=planets["responses"]["missing"], query=planets["query"],
                           documents=planets["documents"])
    rows = frame.set_index("condition")
    assert sorted(rows.index) == ["missing", "normal", "wrong"]
    normal, wrong = rows.loc["normal"], rows.loc["wrong"]
    assert normal["vital_precision"] - wrong["vital_precision"] >= 0.1 or (wrong["rlp"] == 1 and normal["rlp"] == 0)


def test_fails_when_the_wrong_answer_is_not_damaged(planets):
    # a "wrong" answer that only rewords the normal one: its vital claims still hold, nothing to notice
    reworded = planets["responses"]["normal"].replace("There are eight planets in the solar system.",
                                                      "The solar system has eight planets.")
    with pytest.raises(AssertionError) as failure:
        assert_notices(planets["responses"]["normal"], wrong=reworded, query=planets["query"],
                       documents=planets["documents"])
    message = str(failure.value)
    assert message.startswith("VITAL did not notice the wrong answer: VITAL precision ")
    assert "RLP (vital error flagged)" in message and "vital claims of the wrong answer:" in message
    assert "eight planets" in message


def test_assert_metrics_bounds_and_undefined_reason(planets):
    row = assert_metrics(planets["responses"]["normal"], query=planets["query"], documents=planets["documents"],
                         min={"factscore_precision": 0.5}, max={"n_contradicted": 5})
    assert row["factscore_precision"] >= 0.5
    with pytest.raises(AssertionError, match=r"fc_f1 mean >= 0.5: undefined \(needs a reference answer"):
        assert_metrics(planets["responses"]["normal"], query=planets["query"], documents=planets["documents"],
                       min={"fc_f1": 0.5})


def test_needs_something_to_compare():
    with pytest.raises(ValueError, match="needs a wrong or a missing answer"):
        assert_notices("An answer.", query="A question?")
    with pytest.raises(ValueError, match="needs min= or max= bounds"):
        assert_metrics("An answer.", query="A question?")
