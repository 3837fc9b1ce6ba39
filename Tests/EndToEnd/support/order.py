"""Tests that go on from where other tests left off.

Some end-to-end tests take one visit further in turn — a browser page that goes from screen to
screen, a set of records made by one test and read by the next — as a person goes on from what
they did a moment ago. Each such test names the ones it continues from,
`@continues(test_before)`, instead of relying on the order of the file:

- when `test_before` passed in this run, the test runs;
- when it failed or was skipped, the test is skipped and the reason names it (the state it
  would start from is not there);
- when it has not run (deselected with `-k`, say), it runs first, in this test's set-up, after
  its own predecessors, with the same fixtures — so any one test can be run alone.

A test continues from tests written above it in the same file (pytest runs a file in the order
it is written), and no other test may use the shared state in between.
"""

import inspect

import pytest

OUTCOMES = pytest.StashKey[dict]()


def continues(*previous):
    """Marks a test that starts from what the test functions `previous` left behind."""
    # with_args: called with one function, a mark would decorate it instead of holding it.
    return pytest.mark.continues.with_args(*previous)


def record(item, report):
    """Keeps the outcome of a test function (conftest.py calls it with every report)."""
    function = getattr(item, "function", None)
    if function is None:
        return
    outcomes = item.config.stash.setdefault(OUTCOMES, {})
    if report.failed:
        outcomes[function] = "failed"
    elif report.skipped:
        outcomes[function] = "was skipped"
    elif report.when == "call":
        outcomes[function] = "passed"


def reach(request):
    """Before a test marked `continues`: its predecessors passed, or ran now."""
    marker = request.node.get_closest_marker("continues")
    for previous in marker.args if marker else ():
        _reach(request, previous)


def _reach(request, previous):
    outcomes = request.config.stash.setdefault(OUTCOMES, {})
    outcome = outcomes.get(previous)
    if outcome == "passed":
        return
    if outcome is not None:
        pytest.skip(f"it continues from {previous.__name__}, which {outcome}")
    for mark in getattr(previous, "pytestmark", []):
        if mark.name == "continues":
            for earlier in mark.args:
                _reach(request, earlier)
    arguments = {name: request.getfixturevalue(name)
                 for name in inspect.signature(previous).parameters}
    outcomes[previous] = "failed"
    try:
        previous(**arguments)
    except pytest.skip.Exception:
        outcomes[previous] = "was skipped"
        raise
    except BaseException as error:
        error.add_note(f"(in {previous.__name__}, run first because "
                       f"{request.node.name} continues from it)")
        raise
    outcomes[previous] = "passed"
