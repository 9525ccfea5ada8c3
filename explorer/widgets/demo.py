"""The demo picker: fill a page's inputs from a bundled demo example and show its precomputed result."""
from __future__ import annotations

import streamlit as st

from explorer.widgets.data_source import demo_inputs
from explorer.widgets.data_source import demo_results
from explorer.widgets.url_state import qp
from explorer.widgets.url_state import set_qp
from vital_core.model import ExampleResult

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
    state[f"{prefix}_documents"] = "\n---\n".join(d["text"] for d in item.get("documents", []))
    state[f"{prefix}_reference"] = item.get("reference") or ""
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


def demo_picker(prefix: str, text_keys: dict[str, str], result_key: str) -> None:
    """First visit: prefill from the URL's example (or the first demo); then offer a picker."""
    options = list(demo_inputs())
    if f"{prefix}_loaded_demo" not in st.session_state:
        wanted = qp("example")
        prefill_from_demo(prefix, wanted if wanted in options else (options[0] if options else ""),
                          text_keys, result_key)
    with st.expander("Start from a demo example", expanded=False):
        st.selectbox("Demo example", options, index=None, key=f"{prefix}_demo_pick",
                     on_change=on_demo_pick, args=(prefix, text_keys, result_key),
                     format_func=lambda i: f"{i} — {demo_inputs()[i]['query']}",
                     placeholder="Pick one to fill the fields below")

