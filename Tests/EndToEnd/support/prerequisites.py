"""Programs the tests need from the machine. A missing one fails the test that needs it, with
the package to install: on a developer's machine too, not only in CI, because a skipped check
reads like a passed one in a summary nobody scrolls through."""

import shutil

import pytest


def require_program(program, package, why):
    """The path of `program`; fails the calling test or fixture when it is not installed."""
    path = shutil.which(program)
    if path is None:
        pytest.fail(f"{program} is not installed ({why}): install the Debian package {package}, "
                    "or run Tools/install-prerequisites", pytrace=False)
    return path
