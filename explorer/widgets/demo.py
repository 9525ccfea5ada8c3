"""The demo picker: fill a page's inputs from a bundled demo example and show its precomputed result."""
from __future__ import annotations

import streamlit as st

from explorer.logic.damage import variant_metrics
from explorer.widgets.data_source import demo_inputs, demo_results
from explorer.widgets.url_state import qp, set_qp
from vital_core.analysis import story
from vital_core.results.model import NORMAL, ExampleResult

STALE_EVIDENCE_NOTE = ("Your query or response is no longer the demo's, so the demo's evidence documents and "
                       "reference answer were left out (they are about another question). Add your own under "
                       "Evidence to check against them.")


def _demo_evidence(item: dict) -> tuple[str, str]:
    return "\n---\n".join(d["text"] for d in item.get("documents", [])), item.get("reference") or ""


def without_stale_demo_evidence(prefix: str, normal_key: str) -> bool:
    """True when the evidence fields still hold the loaded demo's evidence but the query or the normal
    response is the user's own: that text would be checked against another question's documents. The
    fields are emptied on the next run (a widget's value cannot change after it is drawn)."""
    state = st.session_state
    item = demo_inputs().get(state.get(f"{prefix}_loaded_demo") or "")
    if item is None:
        return False
    documents, reference = _demo_evidence(item)
    if not (documents or reference) or (state.get(f"{prefix}_documents") or "") != documents \
            or (state.get(f"{prefix}_reference") or "") != reference:
        return False
    own = (state.get(f"{prefix}_query") or "").strip() != item["query"].strip() or \
        (state.get(normal_key) or "").strip() != (item["responses"].get("normal") or "").strip()
    if own:
        state[f"{prefix}_clear_evidence"] = True
    return own


def prefill_from_demo(prefix: str, example_id: str, text_keys: dict[str, str], result_key: str) -> None:
    """Fill a page's inputs (session keys ``{prefix}_query`` ...) from a demo example
    and show its precomputed result, restricted to the variants the page edits."""
    item = demo_inputs().get(example_id)
    if item is None:
        return
    state = st.session_state
    state[f"{prefix}_query"] = item["query"]
    for name, key in text_keys.items():
        state[key] = item["responses"].get(name, "")
    state[f"{prefix}_documents"], state[f"{prefix}_reference"] = _demo_evidence(item)
    precomputed = demo_results().get(example_id)
    if precomputed is not None:
        example = ExampleResult.from_dict(precomputed)
        example.variants = {k: v for k, v in example.variants.items() if k in text_keys}
        state[result_key] = example.to_dict()
        state[f"{prefix}_origin"] = f"precomputed by the offline backend for demo example {example_id}"
    state[f"{prefix}_loaded_demo"] = example_id


def on_demo_pick(prefix: str, text_keys: dict[str, str], result_key: str) -> None:
    """``on_change`` of a page's demo picker: prefill it and put the example in the URL."""
    picked = st.session_state.get(f"{prefix}_demo_pick")
    if picked:
        prefill_from_demo(prefix, picked, text_keys, result_key)
        set_qp(example=picked)


def landing_demo() -> str:
    """The demo a first visit opens on: the first whose story is clean (``vital_core.analysis.story.clean``) and
    whose correct answer scores well (``normal_ok``: no low score to explain either), else the first clean one,
    else the first whose wrong variant tells it, else the first; "" without demos."""
    results = {i: ExampleResult.from_dict(r) for i, r in demo_results().items()}
    metrics = {i: variant_metrics(e) for i, e in results.items() if NORMAL in e.variants}
    for choose in (lambda m: story.clean(m) and story.judge_story(m)["normal_ok"], story.clean,
                   lambda m: bool(story.judge_story(m)["wrong_ok"])):
        found = [i for i in demo_inputs() if i in metrics and choose(metrics[i])]
        if found:
            return found[0]
    return next(iter(demo_inputs()), "")


def load_first_visit(prefix: str, text_keys: dict[str, str], result_key: str) -> None:
    """First visit: prefill from the URL's example (or the landing demo)."""
    options = list(demo_inputs())
    if st.session_state.pop(f"{prefix}_clear_evidence", False):   # set by without_stale_demo_evidence
        st.session_state[f"{prefix}_documents"] = st.session_state[f"{prefix}_reference"] = ""
    if f"{prefix}_loaded_demo" not in st.session_state:
        wanted = qp("example")
        prefill_from_demo(prefix, wanted if wanted in options else landing_demo(), text_keys, result_key)


def demo_picker(prefix: str, text_keys: dict[str, str], result_key: str, *, folded: bool = True) -> None:
    """First visit: prefill from the URL's example (or the landing demo); then offer a picker, in an expander
    of its own unless ``folded`` is False (the caller already draws it inside one)."""
    load_first_visit(prefix, text_keys, result_key)
    box = st.expander("Start from a demo example", expanded=False) if folded else st.container()
    with box:
        st.selectbox("Demo example", list(demo_inputs()), index=None, key=f"{prefix}_demo_pick",
                     on_change=on_demo_pick, args=(prefix, text_keys, result_key),
                     format_func=lambda i: f"{i} — {demo_inputs()[i]['query']}",
                     placeholder="Pick one to fill the fields below")


def step_demo(prefix: str, text_keys: dict[str, str], result_key: str, step: int) -> None:
    """Load the demo ``step`` places after the one loaded (wrapping round); Present mode's next/previous."""
    options = list(demo_inputs())
    if not options:
        return
    current = st.session_state.get(f"{prefix}_loaded_demo")
    index = (options.index(current) + step) % len(options) if current in options else 0
    prefill_from_demo(prefix, options[index], text_keys, result_key)
    set_qp(example=options[index])
