"""Sentences that explain a comparison's numbers from the result itself: what the claims were checked
against, and why a normal response (perhaps perfectly correct) scores low.

Plain text; the page escapes it for markdown. Every figure is counted from the result (verdicts,
nugget assignments), never a canned paragraph.
"""
from __future__ import annotations

from vital_core.analysis.conventions import strict_values
from vital_core.analysis.story import NORMAL_OK
from vital_core.metrics.response import compute_response_metrics
from vital_core.results.model import (
    CONTRADICTED,
    EVIDENCE_DOCUMENTS,
    EVIDENCE_NONE,
    EVIDENCE_NORMAL,
    EVIDENCE_REFERENCE,
    EVIDENCE_WORDS,
    NORMAL,
    NOT_ENOUGH_EVIDENCE,
    NOT_JUDGED,
    PARTIAL_SUPPORT,
    SUPPORT,
    SUPPORTED,
    VITAL,
    ExampleResult,
    ResponseResult,
)

# One sentence per evidence mode, said above Compare's results.
EVIDENCE_SENTENCES = {
    EVIDENCE_DOCUMENTS: "Every variant's claims were checked against the evidence documents, and the nuggets "
                        "were built from them.",
    EVIDENCE_REFERENCE: "Every variant's claims were checked against the reference answer (no documents "
                        "were given, so there are no nuggets).",
    EVIDENCE_NORMAL: "No documents and no reference answer were given, so the other variants were checked "
                     "against the normal response, taken as correct (the setting in which the benchmark builds "
                     "its variants): the normal's own claims and nuggets count as supported.",
    EVIDENCE_NONE: "No documents, no reference answer and no normal response to check against: an endpoint "
                   "model judged the claims from its own knowledge; the offline backend, which has none, judged "
                   "nothing, so its verdict-based scores are undefined.",
}
EXAMPLES_SHOWN = 2     # missed nuggets quoted in the explanation
QUOTE_CHARS = 140      # a quoted claim or nugget is cut (with "…") past this length


def _quote(text: str) -> str:
    text = text.strip().rstrip(".")
    if len(text) > QUOTE_CHARS:
        text = text[:QUOTE_CHARS].rstrip() + "\u2026"
    return f"\u201c{text}\u201d"


def warnings_sentence(frame) -> str | None:
    """How many responses of a loaded set carry warnings (what a model's reply lost), per condition;
    None when none does (or the set, e.g. a release, records none)."""
    if "warnings" not in frame.columns:
        return None
    from vital_core.results.dataset import warning_counts
    from vital_core.results.model import ordered_conditions
    counts = warning_counts(frame)
    if not counts.sum():
        return None
    per = ", ".join(f"{c} {int(counts[c])}" for c in ordered_conditions(counts.index) if counts[c])
    return (f"{int(counts.sum())} response(s) carry warnings ({per}): a model's reply lost something (a "
            "sentence, a claim's verdict, a label read only roughly) and their scores count only what was "
            "kept. Open one to read what.")


def _are(n: int) -> str:
    return "is" if n == 1 else "are"


def evidence_mode(example: ExampleResult) -> str:
    """The example's evidence mode (its variants share one; a failed variant may record none)."""
    modes = [v.evidence_mode for v in example.variants.values() if not v.error] or \
        [v.evidence_mode for v in example.variants.values()]
    return modes[0] if modes else EVIDENCE_NONE


def evidence_sentence(example: ExampleResult) -> str:
    mode = evidence_mode(example)
    return EVIDENCE_SENTENCES.get(mode, f"The claims were checked against: {mode}.")


def _precision_reason(response, values: dict, source: str) -> str | None:
    score = values.get("factscore_precision")
    if score is None or score >= NORMAL_OK:
        return None
    claims = response.subclaims
    unstated = [s for s in claims if s.verdict == NOT_ENOUGH_EVIDENCE]
    contradicted = sum(s.verdict == CONTRADICTED for s in claims)
    not_judged = sum(s.verdict == NOT_JUDGED for s in claims)
    text = (f"FactScore precision {score:.2f}: {len(unstated)} of its {len(claims)} claims "
            f"({sum(s.importance == VITAL for s in unstated)} of them vital) {_are(len(unstated))} "
            f"not stated in {source}, and "
            f"precision counts a claim the evidence does not state as not supported")
    if contradicted:
        text += (f"; {contradicted} {_are(contradicted)} contradicted by {source} "
                 "(the answer or the checker is wrong there)")
    if not_judged:
        text += f"; {not_judged} {'was' if not_judged == 1 else 'were'} not judged"
    return text + "."


def _recall_reason(response, nuggets, values: dict) -> str | None:
    score = values.get("nugget_recall")
    if score is None or score >= NORMAL_OK or not nuggets:
        return None
    assignment = response.nugget_assignment or {}
    missed = [n for n in nuggets if assignment.get(n.id) != SUPPORT]
    text = (f"Nugget recall {score:.2f}: {len(missed)} of the {len(nuggets)} nuggets built from the evidence "
            f"({sum(n.importance == VITAL for n in missed)} of them vital) {_are(len(missed))} "
            "not covered by the answer, and "
            f"recall counts every fact of the evidence the answer never mentions")
    quoted = "; ".join(f"\u201c{n.text.strip().rstrip('.')}\u201d" for n in missed[:EXAMPLES_SHOWN])
    return text + (f", e.g. {quoted}." if quoted else ".")


def _fc_reason(response: ResponseResult, reference: str | None, values: dict) -> str | None:
    """What factual-correctness F1 compares (the answer and the reference answer, both ways) and which side
    keeps it low, counted from the verdicts against the reference and the reference's own claims."""
    score = values.get("fc_f1")
    if score is None or score >= NORMAL_OK:
        return None
    claims = response.subclaims
    checks = response.fc_verdicts   # the claims checked against the reference when their verdicts came from documents
    verdicts = [checks.get(s.id, NOT_JUDGED) for s in claims] if checks is not None else [s.verdict for s in claims]
    stated = sum(v == SUPPORTED for v in verdicts)
    contradicted = sum(v == CONTRADICTED for v in verdicts)
    refs = response.reference_claims or []
    covered = [c for c in refs if c.verdict == SUPPORTED]
    against = "the normal response" if response.evidence_mode == EVIDENCE_NORMAL else "the reference answer"
    shown = f" ({_quote(reference)})" if reference and response.evidence_mode != EVIDENCE_NORMAL else ""
    text = (f"Factual correctness F1 {score:.2f} compares this answer with {against}{shown} both ways: "
            f"{len(covered)} of the reference's {len(refs)} claims {_are(len(covered))} "
            f"in the answer (recall {values.get('fc_recall', 0):.2f}), and {stated} of the answer's {len(claims)} "
            f"claims {'is' if stated == 1 else 'are'} stated in the reference "
            f"(precision {values.get('fc_precision', 0):.2f})")
    low = []
    others = len(claims) - stated - contradicted
    if values.get("fc_precision") is not None and values["fc_precision"] < NORMAL_OK and others:
        low.append(f"the other {others} {'is a detail' if others == 1 else 'are details'} the reference does not "
                   f"mention, which this metric counts against the answer: a long, correct answer scores low on it")
    if contradicted:
        low.append(f"{contradicted} {'contradicts' if contradicted == 1 else 'contradict'} the reference")
    missed = [c for c in refs if c.verdict != SUPPORTED]
    if values.get("fc_recall") is not None and values["fc_recall"] < NORMAL_OK and missed:
        low.append(f"the answer does not state {len(missed)} of the reference's claims, e.g. {_quote(missed[0].text)}")
    return text + (": " + "; ".join(low) if low else "") + "."


def why_scores_low(response: ResponseResult, nuggets, reference: str | None = None) -> list[str]:
    """Why a response's FactScore precision, nugget recall or factual-correctness F1 is under ``NORMAL_OK``,
    one sentence each, counted from its verdicts and nugget assignment; empty when none is low (or when the
    response is the reference itself and was taken as correct)."""
    if response.error or response.evidence_mode == EVIDENCE_NORMAL:
        return []
    # strict, as the story above it: a response none of whose claims was judged has no precision to explain
    values = strict_values(compute_response_metrics(response, nuggets), response)
    source = EVIDENCE_WORDS.get(response.evidence_mode, "the evidence")
    if response.evidence_mode == EVIDENCE_NONE:
        if values.get("factscore_precision") is None or values["factscore_precision"] >= NORMAL_OK:
            return []   # undefined (nothing judged) is said where the score shows
        return [f"FactScore precision {values['factscore_precision']:.2f}: no evidence was given, so the model "
                f"judged its {len(response.subclaims)} claims from its own knowledge alone."]
    return [r for r in (_precision_reason(response, values, source),
                        _recall_reason(response, nuggets, values),
                        _fc_reason(response, reference, values)) if r]


def why_normal_scores_low(example: ExampleResult) -> list[str]:
    """``why_scores_low`` of the example's normal response (empty without one)."""
    response = example.variants.get(NORMAL)
    return [] if response is None else why_scores_low(response, example.nuggets, example.reference)


def column_label(variant: str, example: ExampleResult) -> str:
    """A variant's name in tables and charts; the normal response says so when it was the reference."""
    if variant == NORMAL and evidence_mode(example) == EVIDENCE_NORMAL:
        return f"{variant} (taken as correct)"
    return variant


FLAGS_QUOTED = 3   # the claims or nuggets a flag's sentence quotes; the rest are counted
# How a vital claim failed RLP, said of the evidence it was checked against.
NOT_SUPPORTED_AS = {NOT_ENOUGH_EVIDENCE: "not found in {source}", CONTRADICTED: "contradicted by {source}",
                    NOT_JUDGED: "not judged against {source}"}


def _quotes(items: list[tuple[str, str]]) -> str:
    """``FLAGS_QUOTED`` quoted texts, each with its note ("(only partly)"), then how many more there are."""
    shown = "; ".join(_quote(text) + (f" ({note})" if note else "") for text, note in items[:FLAGS_QUOTED])
    more = len(items) - FLAGS_QUOTED
    return shown + (f"; and {more} more" if more > 0 else "")


def _value(values: dict, key: str, label: str) -> str:
    value = values.get(key)
    return f" ({label} {value:.2f})" if isinstance(value, float) else ""


def why_flagged(response: ResponseResult, nuggets) -> list[str]:
    """Why RLP or RLR fires on a response, one plain sentence each built from its verdicts and nugget support,
    quoting the claims or nuggets that set it off: said wherever a (perhaps correct) answer carries a flag.
    Empty when neither fires. Read under the strict convention, as the story is: a response none of whose
    claims was judged has no RLP."""
    values = strict_values(compute_response_metrics(response, nuggets), response)
    source = EVIDENCE_WORDS.get(response.evidence_mode, "the evidence")
    out = []
    if values.get("rlp"):
        vital = [s for s in response.subclaims if s.importance == VITAL]
        unsupported = [s for s in vital if s.verdict != SUPPORTED]
        kinds = {s.verdict for s in unsupported}
        was = "was" if len(unsupported) == 1 else "were"
        if len(kinds) == 1:
            how = f"{was} {NOT_SUPPORTED_AS.get(kinds.pop(), 'not supported by {source}').format(source=source)}"
            items = [(s.text, "") for s in unsupported]
        else:
            how = f"{_are(len(unsupported))} not supported by {source}"
            items = [(s.text, NOT_SUPPORTED_AS.get(s.verdict, "not supported").format(source="it"))
                     for s in unsupported]
        out.append(f"RLP: {len(unsupported)} of this answer's {len(vital)} vital claims {how}"
                   f"{_value(values, 'vital_precision', 'VITAL precision')}: {_quotes(items)} \u2014 RLP fires "
                   f"when any vital claim is not supported.")
    if values.get("rlr"):
        assignment = response.nugget_assignment or {}
        vital = [n for n in nuggets or [] if n.importance == VITAL]
        missed = [n for n in vital if assignment.get(n.id) != SUPPORT]
        items = [(n.text, "only partly" if assignment.get(n.id) == PARTIAL_SUPPORT else "") for n in missed]
        out.append(f"RLR: {len(missed)} of the evidence's {len(vital)} vital nuggets {_are(len(missed))} not "
                   f"in this answer{_value(values, 'vital_recall', 'VITAL recall')}: {_quotes(items)} \u2014 RLR "
                   f"fires when any vital nugget is missed, so a right answer shorter than the evidence is "
                   f"flagged too.")
    return out
