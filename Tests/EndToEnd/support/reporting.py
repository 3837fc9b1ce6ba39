"""What a run tells besides pass and fail: whether a test failed (for fixtures that then show
more), and notes worth reading after a run that passed too."""

import pytest

REPORTS = pytest.StashKey[dict]()


def failed(node):
    """Whether the test `node` failed so far (in its set-up or its body)."""
    reports = node.stash.get(REPORTS, {})
    return any(report.failed for report in reports.values())


class Notes:
    """Lines worth reading after a run that passed too — a seed that reruns a random schedule,
    what the faults cost: printed as the test runs, and again at the end of the run under
    "notes" (pytest shows a passing test's output only when asked)."""

    def __init__(self):
        self.lines = []

    def __call__(self, line):
        print(line, flush=True)
        self.lines.append(line)
