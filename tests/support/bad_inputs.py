"""A corpus of bad inputs, generated (not hand-copied): mutations of valid files, hostile ``--out``
files, bad paths and bad flag values, for every command (``score``, ``perturb``, ``label``,
``report``, ``agreement``) and every loader (input JSONL, results, official records); and the files a
command writes or deletes beside its output (``files_cases``: caches, figures, summaries, label files,
links, the input folder), with inputs every command must read alike (a byte order mark, binary data).

Each ``Case`` is run and judged by ``bad_input_runner``; the app's cases are in ``bad_inputs_app``.
``tests/unit/test_bad_input_corpus.py`` asserts them; ``bench/bench_bad_inputs.py`` prints the figures.
"""
from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable

from tests.support.bad_input_runner import Case
from tests.support.mock_samples import sample_records
from tests.support.release_fixture import condition_records

OFFLINE_INFO = {"name": "offline", "model": "minilm-int8 + rules", "prompt_version": "offline-1"}
NOT_JSON, NOT_OBJECT = b'{"query": "broken', b"[1, 2, 3]"
DEEP = b'{"query": "q?", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


# --------------------------------------------------------------------------- valid bases

def _jsonl(rows: list) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows)


def input_rows() -> list[dict]:
    return sample_records(3)


def official_rows() -> list[dict]:
    rows = []
    for q in range(3):
        parts = condition_records("nq", q, "normal")
        rows.append({**parts["new-metric-out"], "nuggets": parts["nuggets-out"]["nuggets"],
                     "response": parts["nuggets-out"]["response"]})
    return rows


def results_rows() -> list[dict]:
    out = []
    for n, row in enumerate(official_rows()):
        claims = [{"id": c["id"], "text": c["text"], "importance": c["importance"],
                   "verdict": {True: "supported", False: "not_enough_evidence", None: "not_judged"}[c["judgment"]]}
                  for c in row["decomposition"][0]["decomp"]]
        variant = {"text": row["response"]["text"], "subclaims": claims, "order": [c["id"] for c in claims],
                   "nugget_assignment": {"N0": "support", "N1": "support", "N2": "not_support"}, "error": None}
        out.append({"format": "vital-explorer-results/1", "id": f"r{n}", "query": row["query"], "documents": [],
                    "nuggets": row["nuggets"], "variants": {"normal": variant}, "backend": dict(OFFLINE_INFO)})
    return out


def mutated(rows: list[dict], index: int, change: Callable[[dict], Any]) -> bytes:
    """The rows as JSONL with row ``index`` replaced by ``change(copy)`` (a dict, or raw bytes)."""
    rows = copy.deepcopy(rows)
    new = change(rows[index])
    rows[index] = new if new is not None else rows[index]
    return _jsonl(rows)


def _set(**values) -> Callable[[dict], dict]:
    return lambda r: {**r, **values}


def _drop(key: str) -> Callable[[dict], dict]:
    return lambda r: {k: v for k, v in r.items() if k != key}


def _raw(data: bytes) -> Callable[[dict], bytes]:
    return lambda r: data


def _non_utf8(r: dict) -> bytes:
    return json.dumps(r).encode().replace(b'"query": "', b'"query": "\xff\xfe', 1)


def _in_variant(**values) -> Callable[[dict], dict]:
    def change(r):
        r["variants"]["normal"].update(values)
        return r
    return change


def _first_claim(**values) -> Callable[[dict], dict]:
    def change(r):
        claims = r["variants"]["normal"]["subclaims"] if "variants" in r else r["decomposition"][0]["decomp"]
        if claims:   # (``values`` is shared by every use of this mutation: read, never changed)
            claims[0] = values["_whole"] if "_whole" in values else {**claims[0], **values}
        return r
    return change


def _decomp(value) -> Callable[[dict], dict]:
    def change(r):
        r["decomposition"][0]["decomp"] = value
        return r
    return change


INPUT_MUTATIONS = {
    "not-json": _raw(NOT_JSON), "not-object": _raw(NOT_OBJECT), "deep-nesting": _raw(DEEP), "non-utf8": _non_utf8,
    "no-query": _drop("query"), "query-number": _set(query=5), "responses-list": _set(responses=["x"]),
    "responses-typo": lambda r: {**_drop("responses")(r), "response": r["responses"]},
    "response-number": lambda r: {**r, "responses": {**r["responses"], "normal": 3}},
    "documents-string": _set(documents="one long document"), "document-number": _set(documents=[1]),
    "reference-number": _set(reference=7), "id-bool": _set(id=True), "id-list": _set(id=[1]),
    "no-text": _set(responses={"normal": None, "wrong": " "}),
}
RESULTS_MUTATIONS = {
    "variants-list": _set(variants=["normal"]), "nuggets-string": _set(nuggets="N0 N1"),
    "documents-string": _set(documents="doc"), "query-object": _set(query={"q": 1}),
    "subclaims-string": _in_variant(subclaims="S1 S2"), "subclaim-number": _first_claim(_whole=3),
    "text-list": _in_variant(text=["a"]), "order-string": _in_variant(order="S1"),
    "assignment-list": _in_variant(nugget_assignment=["support"]),
    "importance-unknown": _first_claim(importance="critical"), "verdict-unknown": _first_claim(verdict="maybe"),
    "format-other": _set(format="other-tool/2"), "no-variants": _drop("variants"),
    "duplicate-id": _set(id="r0"), "not-json": _raw(NOT_JSON), "not-object": _raw(NOT_OBJECT),
    "deep-nesting": _raw(DEEP),
    "duplicate-claim-id": lambda r: _in_variant(subclaims=r["variants"]["normal"]["subclaims"][:1] * 2)(r),
}
OFFICIAL_MUTATIONS = {
    "decomposition-string": _set(decomposition="abc"), "decomp-string": _decomp("abc"),
    "claim-number": _decomp([3]), "response-list": _set(response=["a"]), "documents-string": _set(documents="d"),
    "nuggets-string": _set(nuggets="N0"), "importance-unknown": _first_claim(importance="critical"),
    "judgment-unknown": _first_claim(judgment="maybe"), "no-query": _drop("query"), "not-json": _raw(NOT_JSON),
    "not-object": _raw(NOT_OBJECT), "variants-line": _set(variants={}), "responses-line": _set(responses={}),
    "claim-no-id": _first_claim(_whole={"text": "no id"}), "claim-text-number": _first_claim(text=5),
    "duplicate-claim-id": lambda r: _decomp(r["decomposition"][0]["decomp"][:1] * 2)(r),
    "non-utf8": _non_utf8, "deep-nesting": _raw(DEEP),
}
LABEL_CHECKS = ("decomposition-string", "decomp-string", "claim-number", "no-query", "not-json", "not-object",
                "claim-no-id", "claim-text-number", "duplicate-claim-id", "non-utf8", "deep-nesting")
REPORT_CHECKS = ("decomposition-string", "decomp-string", "claim-number", "response-list", "documents-string",
                 "nuggets-string", "importance-unknown", "judgment-unknown", "no-query", "not-json", "not-object",
                 "variants-line", "responses-line")
OFFLINE = ["--backend", "offline", "--no-progress"]


def _line(name: str, index: int) -> str:
    return rf"{re.escape(name)} line {index + 1}\b"


# command -> (its arguments after the bad file, the exit status bad data must end with)
LOADER_COMMANDS = {"report": (["--no-cache"], 1), "agreement": (["clean.jsonl"], 1),
                   "score": (["--out", "out.jsonl", *OFFLINE], 2), "perturb": (["--out", "out.jsonl", *OFFLINE], 2),
                   "label": (["--out", "labels.jsonl", "--backend", "offline"], 2)}


def mutation_cases(family: str, filename: str, rows: list[dict], index: int, mutations: dict,
                   commands: dict[str, tuple | None]) -> list[Case]:
    """Each mutation of row ``index`` fed to each command (``commands[c]``: the mutations it checks, None: all)."""
    clean, cases = _jsonl(rows), []
    for name, change in mutations.items():
        bad = mutated(rows, index, change)
        for command, names in commands.items():
            if names is None or name in names:
                rest, code = LOADER_COMMANDS[command]
                cases.append(Case(f"{command}-{family}-{name}-line{index + 1}", [command, filename, *rest],
                                  {filename: bad, "clean.jsonl": clean}, code, _line(filename, index)))
    return cases


def input_cases() -> list[Case]:
    for_perturb = tuple(name for name in INPUT_MUTATIONS if name != "no-text")
    return [case for index, commands in ((0, {"score": None}), (2, {"score": None}), (1, {"perturb": for_perturb}))
            for case in mutation_cases("input", "in.jsonl", input_rows(), index, INPUT_MUTATIONS, commands)]


def results_cases() -> list[Case]:
    return mutation_cases("results", "res.jsonl", results_rows(), 2, RESULTS_MUTATIONS,
                          {"report": None, "agreement": None, "score": None})


def official_cases() -> list[Case]:
    return mutation_cases("official", "normal.jsonl", official_rows(), 1, OFFICIAL_MUTATIONS,
                          {"report": REPORT_CHECKS, "agreement": REPORT_CHECKS, "label": LABEL_CHECKS})


FOREIGN_OUT = {"config-json": b'{"id":"cfg"}', "text": b"hello\nworld", "binary": b"\x00\xff\xfe\x01",
               "blank-lines": b"\n\n", "other-format": b'{"format": "other/1", "id": "x"}\n', "csv": b"a,b\n1,2\n"}


def out_cases() -> list[Case]:
    inputs = {"score": _jsonl(input_rows()), "perturb": _jsonl(input_rows()), "label": _jsonl(official_rows())}
    own = dict(results_rows()[0], id="q1")
    foreign = dict(FOREIGN_OUT, **{"own-then-foreign-tail": _jsonl([own]) + b"my notes",
                                   "duplicate-ids": _jsonl([own, own])})
    foreign["score-results-to-perturb"] = _jsonl([own])
    cases = []
    for command, inp in inputs.items():
        tail = ["--backend", "offline"] + (["--no-progress"] if command != "label" else [])
        for name, content in foreign.items():
            if name == "score-results-to-perturb" and command == "score":
                continue
            line = 2 if name in ("own-then-foreign-tail", "duplicate-ids") and command == "score" else 1
            cases.append(Case(f"{command}-out-{name}", [command, "in.jsonl", "--out", "out.jsonl", *tail],
                              {"in.jsonl": inp, "out.jsonl": content}, 2, rf"out\.jsonl( line {line}\b|:)"))
        places = {"folder": ("outdir", "is a folder", {"outdir/keep.txt": b"x"}),
                  "under-file": ("afile/out.jsonl", "is a file, not a folder", {"afile": b"x"}),
                  "unwritable": ("/sys/vital-corpus.jsonl", "cannot write there", {}),
                  "is-input": ("in.jsonl", "must not be the input", {})}
        for name, (out, needle, files) in places.items():
            cases.append(Case(f"{command}-out-{name}", [command, "in.jsonl", "--out", out, *tail],
                              {"in.jsonl": inp, **files}, 2, re.escape(needle)))
    return cases


FLAGS = {
    "score": [("--concurrency", "0"), ("--concurrency", "abc"), ("--timeout", "0"), ("--timeout", "nan"),
              ("--temperature", "2.5"), ("--max-tokens", "-1"), ("--max-attempts", "0"), ("--backoff", "-1"),
              ("--cache-size-mb", "0"), ("--record-timeout", "inf"), ("--max-words", "0"), ("--backend", "bogus"),
              ("--structured-output", "maybe"), ("--cache-dir", "in.jsonl")],
    "perturb": [("--kinds", "bogus"), ("--kinds", ","), ("--max-words", "-3"), ("--concurrency", "-2")],
    "label": [("--concurrency", "0"), ("--record-timeout", "-5"), ("--max-tokens", "0")],
    "report": [("--k", "0"), ("--k", "nan"), ("--k", "3"), ("--weights", "a,b,c"), ("--weights", "1,2"),
               ("--weights", "inf,1,1"), ("--weights", "1,nan,1"),
               ("--conventions", "bogus"), ("--cache-dir", "in.jsonl")],
}


def flag_cases() -> list[Case]:
    inputs = {"score": _jsonl(input_rows()), "perturb": _jsonl(input_rows()), "label": _jsonl(official_rows()),
              "report": _jsonl(results_rows())}
    cases = []
    for command, flags in FLAGS.items():
        for flag, value in flags:
            argv = [command, "in.jsonl"] + (["--out", "out.jsonl"] if command != "report" else []) + [flag, value]
            cases.append(Case(f"{command}-flag{flag}={value}", argv, {"in.jsonl": inputs[command]}, 2,
                              re.escape(flag)))
    cases.append(Case("agreement-flag-missing-b", ["agreement", "a.jsonl"], {"a.jsonl": inputs["report"]}, 2,
                      r"arguments are required: b"))
    return cases


def path_cases() -> list[Case]:
    commands = {"score": ["--out", "out.jsonl", *OFFLINE], "perturb": ["--out", "out.jsonl", *OFFLINE],
                "label": ["--out", "out.jsonl", "--backend", "offline"], "report": ["--no-cache"],
                "agreement": ["empty.jsonl"]}
    cases = []
    for command, rest in commands.items():
        cases.append(Case(f"{command}-path-missing", [command, "nope.jsonl", *rest], {"empty.jsonl": b""},
                          2, r"nope\.jsonl"))
        code = 1 if command in ("report", "agreement") else 2
        cases.append(Case(f"{command}-path-empty", [command, "empty.jsonl", *rest], {"empty.jsonl": b""}, code,
                          r"empty\.jsonl"))
    for command, rest in (("report", ["--no-cache"]), ("score", ["--out", "out.jsonl", *OFFLINE])):
        cases.append(Case(f"{command}-path-no-data", [command, "data"], {"data/readme.txt": b"no results here"},
                          2, r"data: no results found"))
        cases[-1].argv += rest
    cases.append(Case("report-path-original-only", ["report", "original.jsonl", "--no-cache"],
                      {"original.jsonl": _jsonl([{"query": "q?", "documents": []}])}, 2, r"original\.jsonl"))
    cases.append(Case("label-path-folder", ["label", "data", "--out", "out.jsonl", "--backend", "offline"],
                      {"data/x.jsonl": b"{}\n"}, 2, r"data is not a file"))
    return cases


BINARY = b"\x00" * (1 << 20)    # a sparse or binary file: named from its first bytes, never read whole
BOM = b"\xef\xbb\xbf"


def files_cases() -> list[Case]:
    """What a command writes or deletes besides its output, and what every command must read alike."""
    results, official, inp = _jsonl(results_rows()), _jsonl(official_rows()), _jsonl(input_rows())
    tiny = {"VITAL_DATASET_CACHE_MB": "0.000001"}        # over the cache budget at once
    mixed = [dict(r, id=f"set/{i}") for i, r in enumerate(results_rows())]
    cases = [
        Case("report-files-cache-dir-with-a-persons-files", ["report", "res.jsonl", "--cache-dir", "mydata"],
             {"res.jsonl": results, "mydata/dataset-model.pkl": b"my model",
              "mydata/dataset-train.jsonl": b'{"text": "mine"}\n'}, 0, "", env=tiny),
        Case("report-files-cache-dir-is-the-input-folder", ["report", "data", "--cache-dir", "data"],
             {"data/dataset-results.jsonl": results}, 0, "", env=tiny),
        Case("label-files-out-is-a-human-label-file", ["label", "in.jsonl", "--out", "human.jsonl",
                                                       "--backend", "offline"],
             {"in.jsonl": official, "human.jsonl": official}, 2, r"human\.jsonl line 1\b.*--out"),
        Case("label-files-out-is-a-link", ["label", "in.jsonl", "--out", "labels.jsonl", "--backend", "offline"],
             {"in.jsonl": official, "important.txt": b"keep"}, 2, r"labels\.jsonl: is a symbolic link",
             links={"labels.jsonl": "important.txt"}),
        Case("report-files-figures-over-a-persons-figure", ["report", "res.jsonl", "--no-cache", "--figures", "figs"],
             {"res.jsonl": results, "figs/figure-5.png": b"\x89PNG my chart"}, 2, r"figs/figure-5\.png.*--figures"),
        Case("report-files-figures-through-a-link", ["report", "res.jsonl", "--no-cache", "--figures", "figs"],
             {"res.jsonl": results, "important.txt": b"keep", "figs/notes.txt": b"x"}, 2,
             r"figs/figure-5\.svg: is a symbolic link", links={"figs/figure-5.svg": "../important.txt"}),
        Case("report-files-export-through-a-link", ["report", "res.jsonl", "--no-cache", "--export", "frame.csv"],
             {"res.jsonl": results, "important.txt": b"keep"}, 2, r"frame\.csv: is a symbolic link",
             links={"frame.csv": "important.txt"}),
        Case("score-files-summary-is-the-input", ["score", "o.jsonl.summary.json", "--out", "o.jsonl", *OFFLINE],
             {"o.jsonl.summary.json": inp}, 2, r"o\.jsonl\.summary\.json.*--out"),
        Case("score-files-summary-over-a-persons-file", ["score", "in.jsonl", "--out", "o.jsonl", *OFFLINE],
             {"in.jsonl": inp, "o.jsonl.summary.json": b'{"my": "notes"}'}, 2, r"o\.jsonl\.summary\.json.*--out"),
        Case("perturb-files-summary-over-a-persons-file", ["perturb", "in.jsonl", "--out", "o.jsonl", *OFFLINE],
             {"in.jsonl": inp, "o.jsonl.summary.json": b"my notes\n"}, 2, r"o\.jsonl\.summary\.json.*--out"),
        Case("score-files-out-in-the-input-folder", ["score", "set", "--out", "set/results.jsonl", *OFFLINE],
             {"set/normal.jsonl": official}, 2, r"set/results\.jsonl: lies in the input of this run"),
        Case("report-files-folder-mixes-records-and-results", ["report", "set", "--no-cache"],
             {"set/normal.jsonl": official, "set/results.jsonl": _jsonl(mixed)}, 1,
             r"set/results\.jsonl line 1: .*mixes two labellings"),
        Case("report-files-bom", ["report", "res.jsonl", "--no-cache"], {"res.jsonl": BOM + results}, 0, ""),
        Case("agreement-files-bom", ["agreement", "a.jsonl", "b.jsonl"],
             {"a.jsonl": BOM + official, "b.jsonl": official}, 0, ""),
        Case("label-files-bom", ["label", "in.jsonl", "--out", "labels.jsonl", "--backend", "offline"],
             {"in.jsonl": BOM + official}, 0, ""),
    ]
    for command, rest, code in (("score", ["--out", "o.jsonl", *OFFLINE], 2),
                                ("perturb", ["--out", "o.jsonl", *OFFLINE], 2), ("report", ["--no-cache"], 1),
                                ("agreement", ["clean.jsonl"], 1),
                                ("label", ["--out", "o.jsonl", "--backend", "offline"], 2)):
        cases.append(Case(f"{command}-files-binary-input", [command, "bin.jsonl", *rest],
                          {"bin.jsonl": BINARY, "clean.jsonl": official}, code,
                          r"bin\.jsonl is not a text file \(it holds binary data\)"))
    return cases


# A password and a query key written into base URLs, and keys in the environment: never shown anywhere.
PASSWORD, QUERY_KEY, ENV_KEY = "pw-s3cret-9184", "qk-s3cret-5527", "sk-env-s3cret-7731"
ENDPOINT = ["--backend", "openai", "--no-progress"]
GARBLED_BATCH = {"not-utf8": b'{"custom_id": "reply:\xff\xfe"}\n', "not-json": b'{"custom_id": "reply:ab\n',
                 "bom-then-garbage": b"\xef\xbb\xbf\x00\x01\x02\n"}


def secret_cases() -> list[Case]:
    """Endpoints whose URL or environment carries a secret, each refused or reported without showing it;
    a bad port, a garbled batch output or a non-finite price as one sentence, never "unexpected"."""
    inp = {"in.jsonl": _jsonl(input_rows())}
    score = ["score", "in.jsonl", "--out", "out.jsonl"]
    bad_port = f"http://alice:{PASSWORD}@127.0.0.1:99999/v1?api-key={QUERY_KEY}"
    cases = [
        Case("score-secret-bad-port-option", [*score, "--base-url", bad_port, *ENDPOINT], inp, 2,
             r"--base-url is not a valid URL", secret=PASSWORD),
        Case("score-secret-bad-port-env", [*score, *ENDPOINT], inp, 2, r"--base-url is not a valid URL",
             env={"OPENAI_BASE_URL": bad_port, "OPENAI_API_KEY": ENV_KEY}, secret=PASSWORD),
        Case("score-secret-no-scheme", [*score, "--base-url", f"alice:{PASSWORD}@127.0.0.1/v1", *ENDPOINT], inp, 2,
             r"--base-url must start with http", secret=PASSWORD),
        Case("score-secret-step-url", [*score, "--backend", "offline", "--no-progress", "--verify-backend", "openai",
                                       "--verify-base-url", f"ftp://u:{PASSWORD}@h/v1?api-key={QUERY_KEY}"], inp, 2,
             r"--verify-base-url must start with http", env={"VITAL_VERIFY_API_KEY": ENV_KEY}, secret=QUERY_KEY),
        Case("score-secret-port-zero", [*score, "--base-url", f"http://alice:{PASSWORD}@h:0/v1", *ENDPOINT], inp, 2,
             r"--base-url has port 0", secret=PASSWORD),
        Case("score-secret-step-env-key", [*score, "--backend", "offline", "--no-progress", "--rank-backend",
                                           "openai", "--rank-base-url", "http://127.0.0.1:99999/v1"], inp, 2,
             r"--rank-base-url is not a valid URL", env={"VITAL_RANK_API_KEY": ENV_KEY}, secret=ENV_KEY),
    ]
    local = [*score, "--base-url", "http://127.0.0.1:9/v1", *ENDPOINT]
    for name, data in GARBLED_BATCH.items():
        cases.append(Case(f"score-batch-import-{name}", [*local, "--batch-import", "batch-out.jsonl"],
                          {**inp, "batch-out.jsonl": data}, 2, r"--batch-import batch-out\.jsonl line 1\b",
                          env={"OPENAI_API_KEY": ENV_KEY}, secret=ENV_KEY))
    for name, table in (("nan", b'{"gpt-4o-mini": [NaN, 0.6]}'), ("infinity", b'{"gpt-4o-mini": [0.15, Infinity]}'),
                        ("overflow", b'{"m": [1e999, 1]}')):
        cases.append(Case(f"score-prices-{name}", [*local, "--prices", "prices.json"],
                          {**inp, "prices.json": table}, 2, r"price table 'prices\.json'.*finite"))
    return cases


def generate() -> list[Case]:
    return (input_cases() + results_cases() + official_cases() + out_cases() + flag_cases() + path_cases()
            + files_cases() + secret_cases())
