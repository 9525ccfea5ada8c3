"""A correct answer that carries RLP and RLR and a low factual-correctness F1, as the bundled demos' correct
answers may: the tests of the plain-words explanations build it here so that they hold whatever the demos'
own flags are."""
from __future__ import annotations

from vital_core.results.model import EVIDENCE_DOCUMENTS, ExampleResult, Nugget, ResponseResult, Subclaim

REFERENCE = "There are eight planets in the solar system."
MISSED_NUGGET = "Pluto was long regarded as the ninth planet"
UNFOUND_CLAIM = "Pluto was reclassified in 2006"


def flagged_correct_example(variants: tuple[str, ...] = ("normal",)) -> ExampleResult:
    """Query about planets; the answer's 2 vital claims: one supported, one the evidence does not state (RLP);
    of the 2 vital nuggets one is only partly in the answer (RLR); checked against the one-sentence reference,
    1 of its 5 claims is stated there (factual-correctness precision 0.20, recall 1.00, F1 0.33)."""
    texts = ["There are eight planets", UNFOUND_CLAIM, "Mercury is the closest to the Sun",
             "Jupiter is the largest", "Neptune is the farthest"]
    tiers = ["vital", "vital", "okay", "okay", "less-important"]
    verdicts = ["supported", "not_enough_evidence", "supported", "supported", "supported"]

    def response(name: str) -> ResponseResult:
        claims = [Subclaim(f"S{i}", t, importance=tier, rank=i, verdict=v)
                  for i, (t, tier, v) in enumerate(zip(texts, tiers, verdicts), start=1)]
        return ResponseResult(
            name, ". ".join(texts) + ".", claims, order=[c.id for c in claims], evidence_mode=EVIDENCE_DOCUMENTS,
            nugget_assignment={"N1": "support", "N2": "partial_support", "N3": "support"},
            fc_verdicts={"S1": "supported", "S2": "not_enough_evidence", "S3": "not_enough_evidence",
                         "S4": "not_enough_evidence", "S5": "not_enough_evidence"},
            reference_claims=[Subclaim("R1", REFERENCE, importance="vital", rank=1, verdict="supported")])

    nuggets = [Nugget("N1", "The solar system has eight planets", "vital"), Nugget("N2", MISSED_NUGGET, "vital"),
               Nugget("N3", "Jupiter is the largest planet", "okay")]
    return ExampleResult("planets", "How many planets are in the solar system?",
                         {name: response(name) for name in variants}, nuggets=nuggets, reference=REFERENCE)
