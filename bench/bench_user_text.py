"""The offline backend on user-style text: answers of 90-150 words whose key fact sits in one sentence.

    python -m bench.bench_user_text --set user24                   # scored with the documents
    python -m bench.bench_user_text --set user24 --reference-only  # with the one-sentence reference alone
    python -m bench.bench_user_text --set user24 --normal-as-reference   # no evidence: variants against normal
    python -m bench.bench_user_text --set user24 --json out.json

Each case of ``data/{set}/cases.jsonl`` (fields in its README) has a normal answer, a wrong variant
(one value changed: ``right_value`` -> ``wrong_value``) and a missing variant (the key sentence removed).
The three are scored through ``vital_core.scoring.pipeline.score_example`` with the offline backend, either
with the case's documents (no reference), with its reference alone (no documents), or with neither, so
that the variants are checked against the normal answer taken as correct (the normal answer itself is
then not verified, so its figures are not printed). Printed:

* key claim supported: a claim of the normal answer that holds ``right_value`` is supported;
* wrong value contradicted: a claim of the wrong variant that holds ``wrong_value`` is contradicted;
  and "ever supported": one such claim is supported (the worst outcome);
* VITAL notices wrong more than FactScore: VITAL precision drops by at least 0.10 and by more than
  FactScore precision does, or RLP fires for the wrong variant but not for the normal one;
* missing noticed: VITAL recall drops by at least 0.10 or RLR fires for missing only
  (``vital_core.analysis.story.judge_story``);
* RLP fires on the correct answer;
* reasons contradicting their own quote (``reason_contradicts_quote``), over every claim scored;
* claims of the correct (normal) answers contradicted: false contradictions (not with --normal-as-reference).
"""
from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from vital_core.analysis.stats import noticed
from vital_core.analysis.story import judge_story
from vital_core.backends.offline import OfflineBackend
from vital_core.metrics import compute_response_metrics
from vital_core.results.model import CONTRADICTED, SUPPORTED, Document
from vital_core.scoring.pipeline import run_sync, score_example

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
NOTICE = 0.10

# "does not mention X; Y" / "does not say 'w', 'v'" followed by the quote of the evidence sentence used
_ABSENT = re.compile(r"does not (?:mention|say) (.+?) \((?:closest: )?\"")
_QUOTE = re.compile(r"\"(.+?)\"(?:,|\)|$)")


def _said(item: str, quote: str) -> bool:
    """Is ``item`` (a word, a name or a value as the reason writes it) written in ``quote``?"""
    words = re.findall(r"[\w'’\-]+", item.lower())
    text = " " + " ".join(re.findall(r"[\w'’\-]+", quote.lower())) + " "
    return bool(words) and f" {' '.join(words)} " in text


def reason_contradicts_quote(reason: str) -> str | None:
    """What a reason says is absent although the evidence sentence it quotes states it, or None.

    Reads the reasons' own forms: "the evidence does not mention X; Y (closest: "...")" and
    "the closest evidence does not say 'a', 'b' (closest: "...")"."""
    absent = _ABSENT.search(reason)
    quote = _QUOTE.search(reason[absent.end() - 1:]) if absent else None
    if not absent or not quote:
        return None
    items = [i.strip(" '\"") for i in re.split(r";|,(?=\s*')", absent.group(1))]
    stated = [i for i in items if i and _said(i, quote.group(1))]
    return f"says {', '.join(stated)} is absent, but the quote states it" if stated else None


def load_cases(name: str) -> list[dict]:
    path = DATA / name / "cases.jsonl"
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _documents(case: dict) -> list[Document]:
    out = []
    for n, doc in enumerate(case.get("documents") or []):
        if isinstance(doc, str):
            out.append(Document(id=f"d{n + 1}", text=doc))
        else:
            out.append(Document(id=str(doc.get("id", f"d{n + 1}")), title=doc.get("title", ""), text=doc["text"]))
    return out


def _holding(subclaims, value: str) -> list:
    key = value.lower().strip()
    return [s for s in subclaims if key in s.text.lower()]


def score_case(backend: OfflineBackend, case: dict, mode: str = "documents") -> dict:
    responses = {"normal": case["normal"], "wrong": case["wrong"], "missing": case["missing"]}
    evidence = {"reference": {"reference": case["reference"]}, "documents": {"documents": _documents(case)},
                "normal": {}}[mode]
    start = time.perf_counter()
    example = run_sync(score_example(backend, example_id=case["id"], query=case["query"], responses=responses,
                                     **evidence))
    seconds = (time.perf_counter() - start) / len(responses)
    errors = [f"{name}: {v.error}" for name, v in example.variants.items() if v.error]
    if errors:
        raise RuntimeError(f"{case['id']}: {errors}")
    metrics = {name: compute_response_metrics(v, example.nuggets) for name, v in example.variants.items()}
    story = judge_story(metrics)
    normal, wrong = example.variants["normal"], example.variants["wrong"]
    key_claims = _holding(normal.subclaims, case["right_value"])
    wrong_claims = _holding(wrong.subclaims, case["wrong_value"])
    vp_drop, fs_drop = story["vp_drop"], story["fs_move"]
    vital_more = bool(story["rlp_new"]) or (vp_drop is not None and vp_drop >= NOTICE
                                            and (fs_drop is None or vp_drop > fs_drop))
    bad_reasons = []
    for name, variant in example.variants.items():
        for s in list(variant.subclaims) + list(variant.reference_claims or []):
            why = reason_contradicts_quote(s.reason or "")
            if why:
                bad_reasons.append(f"{name}: {s.text} -> {why}")
    return {"id": case["id"], "kind": case.get("kind", ""), "seconds": seconds,
            "key_supported": any(s.verdict == SUPPORTED for s in key_claims),
            "key_claim_found": bool(key_claims),
            "wrong_contradicted": any(s.verdict == CONTRADICTED for s in wrong_claims),
            "wrong_supported": any(s.verdict == SUPPORTED for s in wrong_claims),
            "vital_more_than_factscore": vital_more,
            "missing_noticed": bool(story["missing_ok"]),
            "rlp_on_normal": bool(metrics["normal"].get("rlp")),
            "normal_vital_precision": metrics["normal"].get("vital_precision"),
            # the normal answer is correct: a contradicted claim of it is a false contradiction (none is
            # judged when the normal answer is itself the evidence)
            "normal_contradicted": sum(s.verdict == CONTRADICTED for s in normal.subclaims),
            "normal_claims": len(normal.subclaims),
            "bad_reasons": bad_reasons,
            "noticed_vp": bool(noticed("vital_precision", metrics["normal"].get("vital_precision"),
                                       metrics["wrong"].get("vital_precision")))}


FIGURES = (("key claim supported (normal)", "key_supported", "≥ 22"),
           ("wrong value contradicted", "wrong_contradicted", "≥ 18"),
           ("wrong value ever supported", "wrong_supported", "0"),
           ("VITAL notices wrong more than FactScore", "vital_more_than_factscore", "≥ 20"),
           ("missing noticed (VITAL recall / RLR)", "missing_noticed", "≥ 20"),
           ("RLP fires on the correct answer", "rlp_on_normal", "≤ 4"))


def figures(rows: list[dict]) -> dict:
    out = {key: sum(r[key] for r in rows) for _, key, _ in FIGURES}
    out["reasons_contradicting_quote"] = sum(len(r["bad_reasons"]) for r in rows)
    out["normal_contradicted"] = sum(r["normal_contradicted"] for r in rows)
    out["normal_claims"] = sum(r["normal_claims"] for r in rows)
    out["n"] = len(rows)
    out["seconds_per_response_median"] = sorted(r["seconds"] for r in rows)[len(rows) // 2] if rows else None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="user24", help="a folder of data/ holding cases.jsonl")
    parser.add_argument("--reference-only", action="store_true",
                        help="score with the one-sentence reference alone (no documents)")
    parser.add_argument("--normal-as-reference", action="store_true",
                        help="no documents and no reference: the variants are checked against the normal answer")
    parser.add_argument("--rows", action="store_true", help="print one line per case")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    cases = load_cases(args.set)
    backend = OfflineBackend()
    backend.warm_up()
    mode = "reference" if args.reference_only else "normal" if args.normal_as_reference else "documents"
    rows = [score_case(backend, c, mode) for c in cases]
    fig = figures(rows)
    print(f"set: data/{args.set} ({fig['n']} cases), evidence: "
          f"{ {'reference': 'reference alone', 'normal': 'the normal answer', 'documents': 'documents'}[mode]}")
    if args.rows:
        for r in rows:
            flags = " ".join(f"{key[:8]}={int(r[key])}" for _, key, _ in FIGURES)
            print(f"   {r['id']:<8} {flags}  bad reasons {len(r['bad_reasons'])}")
    for label, key, target in FIGURES:
        if mode == "normal" and key in ("key_supported", "rlp_on_normal", "vital_more_than_factscore"):
            continue    # the normal answer is the evidence: not verified, and FactScore is undefined on it
        print(f"   {label:<46} {fig[key]:>3} of {fig['n']}   target {target}")
    print(f"   {'reasons contradicting their quote':<46} {fig['reasons_contradicting_quote']:>3}          target 0")
    if mode != "normal":
        print(f"   {'claims of the correct answers contradicted':<46} {fig['normal_contradicted']:>3} of "
              f"{fig['normal_claims']}   target 0 (a false contradiction)")
    print(f"   seconds per response (median): {fig['seconds_per_response_median']:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"figures": fig, "rows": rows}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
