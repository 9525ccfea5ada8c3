"""The generated bad-input corpus (tests/support/bad_inputs.py), every case a subprocess: the right exit status,
one error naming the file and line (or the field / flag), no traceback, not one byte of any given
file changed (issue 11); the files beside an output, links, caches and the input folder (issue 23)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.support.bad_input_runner import run_case
from tests.support.bad_inputs import generate
from tests.support.bad_inputs_app import app_cases, run_app_case

COMMANDS = ("score", "perturb", "label", "report", "agreement")


def test_the_corpus_covers_every_command_and_loader():
    cases = generate()
    names = [c.name for c in cases]
    assert len(cases) >= 100 and len(set(names)) == len(names)
    for command in COMMANDS:
        assert sum(c.argv[0] == command for c in cases) >= 10, command
    for family in ("-input-", "-results-", "-official-", "-out-", "-flag", "-path-", "-files-"):
        assert any(family in name for name in names), family


def test_every_bad_input_ends_in_one_named_error_and_changes_nothing(tmp_path):
    cases = generate()
    with ThreadPoolExecutor(2) as pool:       # two at a time: the machine has two cores
        outcomes = list(pool.map(lambda case: run_case(case, tmp_path), cases))
    failures = [o.why() for o in outcomes if not o.ok]
    assert not failures, f"{len(failures)} of {len(cases)} cases:\n" + "\n\n".join(failures[:10])


def test_the_corpus_is_the_same_every_time():
    first, second = generate(), generate()
    assert [(c.name, c.argv, c.files) for c in first] == [(c.name, c.argv, c.files) for c in second]


def test_every_app_case_escapes_its_labels_and_shows_no_secret(tmp_path):
    """The hostile results file on every page that loads one and Annotate's export of its hostile condition:
    no label or body renders markup; endpoint URLs with credentials in the environment: never on the page."""
    cases = app_cases(tmp_path)
    assert {c.page for c in cases} == {"explore", "sensitivity", "agreement", "score", "compare"}
    failures = [o.why() for o in (run_app_case(case, tmp_path) for case in cases) if not o.ok]
    assert not failures, "\n".join(failures)
