"""``python -m vital_core perturb INPUT --out OUTPUT.jsonl``: make missing / wrong variants.

For every record with a ``normal`` response, the backend writes the
``missing`` variant (the key information removed) and the ``wrong`` variant
(the key information falsified) the way the VITAL paper's appendix A
describes. Each variant is checked (``vital_core.scoring.perturbation``): ``missing``
must be shorter and reuse the normal's words, ``wrong`` must differ in a few
words only. A variant that fails is not written; the record carries
``"perturbation_errors": {"wrong": "why"}`` instead and the failure is
reported. Variants already present are kept unless ``--overwrite``.

The output has the input's shape, so it goes straight into ``score``. Like
``score`` it is resumable (records already in OUTPUT are skipped).
Exit status: 0 all variants made, 1 some failed their checks, 2 bad usage.
"""
from __future__ import annotations

import argparse
import asyncio

from vital_core.cli.backend_options import (
    add_backend_arguments,
    add_size_argument,
    key_redactor,
    prepare_batch,
    run_batch_command,
)
from vital_core.cli.main import UsageError
from vital_core.results.model import MISSING, NORMAL, WRONG
from vital_core.scoring import deadline
from vital_core.scoring.inputs import InputRecord
from vital_core.scoring.limits import MAX_WORDS, too_long
from vital_core.scoring.perturbation import check_variant
from vital_core.scoring.runs import PERTURB_LINES, RECORD_TIMEOUT, run_resumable, timed_out

ERRORS_FIELD = "perturbation_errors"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="input JSONL ({id, query, responses: {normal: ...}, ...} per line)")
    parser.add_argument("--out", required=True, help="output JSONL in the same shape (resumable)")
    parser.add_argument("--kinds", default="missing,wrong", help="variants to make (default missing,wrong)")
    parser.add_argument("--overwrite", action="store_true", help="replace variants the input already has")
    parser.add_argument("--retry-failed", action="store_true",
                        help="try again the records that failed a check in an earlier run of this output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_size_argument(parser)
    add_backend_arguments(parser, steps=())   # perturb neither ranks nor verifies


async def perturb_record(backend, record: InputRecord, kinds: list[str], overwrite: bool, *,
                         timeout: float | None = RECORD_TIMEOUT, max_words: int | None = MAX_WORDS) -> dict:
    """The record with its variants filled in; failures under ``perturbation_errors``. Never raises.

    The whole record gets ``timeout`` seconds; a kind not made by then keeps that as its error.
    """
    responses = dict(record.responses)
    errors: dict[str, str] = {}
    todo = [k for k in kinds if overwrite or not responses.get(k)]
    try:
        with deadline.within(timeout):   # the offline backend's threads stop at it too
            await asyncio.wait_for(_make_variants(backend, record.query, responses, todo, errors, max_words),
                                   timeout)
    except asyncio.TimeoutError:
        for kind in todo:
            if kind not in errors and responses.get(kind) == record.responses.get(kind):
                errors[kind] = timed_out(timeout)
    line = record.to_dict()
    line["responses"] = responses
    line.pop(ERRORS_FIELD, None)
    if errors:
        line[ERRORS_FIELD] = errors
    return line


async def _make_variants(backend, query: str, responses: dict, kinds: list[str], errors: dict[str, str],
                         max_words: int | None) -> None:
    normal = responses.get(NORMAL)
    for kind in kinds:
        if not normal or not normal.strip():
            errors[kind] = "no normal response to perturb"
            continue
        if too_long(normal, max_words):
            errors[kind] = too_long(normal, max_words)
            continue
        try:
            variant = await backend.perturb(query, normal, kind)
            check = check_variant(kind, normal, variant)  # every backend's output is checked here too
            if not check.ok:
                raise ValueError(f"check failed: {check.message}")
            responses[kind] = variant
        except Exception as exc:
            errors[kind] = f"{type(exc).__name__}: {exc}"


def perturbation_error(line: dict) -> str | None:
    errors = line.get(ERRORS_FIELD)
    if not errors:
        return None
    return "; ".join(f"{k}: {v}" for k, v in errors.items())


def run(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in (MISSING, WRONG)]
    if bad or not kinds:
        raise UsageError(f"--kinds takes missing and/or wrong (got {args.kinds!r})")
    out, records, backend = prepare_batch(args, "perturbing")
    return run_batch_command(backend, out, lambda: run_resumable(
        records, out, lambda rec: perturb_record(backend, rec, kinds, args.overwrite, timeout=args.record_timeout,
                                                max_words=args.max_words),
        concurrency=args.concurrency, progress=not args.no_progress, retry_failed=args.retry_failed,
        error_of=perturbation_error, lines_format=PERTURB_LINES, redact=key_redactor(args),
        desc="perturbing", verb="perturbed",
        backend_info=backend.info.to_dict(), usage=getattr(backend, "usage_summary", None)))
