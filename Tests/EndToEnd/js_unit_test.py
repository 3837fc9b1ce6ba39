"""Unit tests of the page's ES modules, in headless Chromium.

Serves the page's files at / — the frame's (Modules/Frontends/WebFrontend/Public) and each
feature's (Modules/Frontends/Adapters/<Feature>/Web/Public), as app-server does — and the tests
(Tests/WebFrontendJS) at /tests/ on 127.0.0.1, opens /tests/index.html, and reads each test's
outcome. The modules are the files app-server serves, unchanged: no build step.

Each JavaScript test is a case of its own here. Their names are read when pytest collects this
file, from the same test files loaded in Chromium at /list/, where `harness.js` is replaced by
one that records each name instead of running the test (tests are registered in loops too, so
their names are not all in the source as written).
"""

import functools
import http.server
import io
import sys
import threading
import time

import pytest

from support import ROOT
from support.browser import Chromium

PUBLIC = [ROOT / "Modules" / "Frontends" / "WebFrontend" / "Public",
          *sorted((ROOT / "Modules" / "Frontends" / "Adapters").glob("*/Web/Public"))]
TESTS = ROOT / "Tests" / "WebFrontendJS"

# The page of /list/, which loads the tests' run.js from /list/ too, and the harness they import
# there: the real one's exports, except that `test` records the name and `run` publishes the names
# (a module's own export hides the one `export *` brings).
LISTING = {
    "/list/index.html": ("text/html", b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page unit tests: names</title></head>
<body><div id="fixture"></div><script type="module" src="/list/run.js"></script></body></html>
"""),
    "/list/harness.js": ("text/javascript", b"""
export * from "/tests/harness.js";
const names = [];
export function test(name) { names.push(name); }
export async function run() { window.__results = { names }; }
"""),
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                      ".svg": "image/svg+xml", "": "application/octet-stream"}

    def send_head(self):
        listing = LISTING.get(self.path.split("?", 1)[0])
        if listing is None:
            return super().send_head()
        content_type, body = listing
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def translate_path(self, path):
        path = path.split("?", 1)[0]
        if path.startswith(("/tests/", "/list/")):
            bases, rest = [TESTS], path.split("/", 2)[2]
        else:
            bases, rest = PUBLIC, path.lstrip("/")
        for base in bases:
            candidate = (base / rest).resolve()
            if candidate.is_relative_to(base) and candidate.is_file():
                return str(candidate)
        return str(bases[0] / "missing")

    def log_message(self, *arguments):
        pass


def page_results(chromium, address):
    """`window.__results` of `address` on the test server, once the page has published them."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = chromium.driver()
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}{address}")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            results = driver.execute_script("return window.__results || null")
            if results is not None:
                return results
            time.sleep(0.1)
        console = "\n".join(entry["message"] for entry in driver.get_log("browser"))
        raise AssertionError(f"the page did not finish within 60 s\n{console}")
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()


@functools.cache
def listed_names():
    """The names of the JavaScript tests, in the order they run; or the error that kept them."""
    try:
        results = page_results(Chromium(), "/list/index.html")
    # A missing browser, a page that never finishes: one case stands in and fails with it.
    except (Exception, pytest.fail.Exception) as error:  # noqa: BLE001
        return None, f"{type(error).__name__}: {error}"
    if "names" not in results:
        return None, "\n".join(results.get("lines", [])) or str(results)
    return results["names"], None


def pytest_generate_tests(metafunc):
    if "name" in metafunc.fixturenames:
        names, error = listed_names()
        if names is None:
            metafunc.parametrize("name", [pytest.param(error, id="listing")])
        else:
            metafunc.parametrize("name", names)


@pytest.fixture(scope="module")
def outcomes(chromium):
    """Each test's line of the run ("PASS name" or "FAIL name: message"), by name."""
    results = page_results(chromium, "/tests/index.html")
    names, _ = listed_names()
    by_name = {}
    for line in results["lines"]:
        # A name may hold ": ", so the line is matched against the listed names, longest first.
        for candidate in sorted(names or [], key=len, reverse=True):
            if line == f"PASS {candidate}" or line.startswith(f"FAIL {candidate}: "):
                by_name.setdefault(candidate, line)
                break
        else:
            by_name.setdefault(None, line)
    return results, by_name


def test_passes(name, outcomes):
    names, error = listed_names()
    assert names is not None, f"the tests could not be listed: {error}"
    results, by_name = outcomes
    assert name in by_name, f"the page did not run {name!r}: {by_name.get(None) or results}"
    assert by_name[name] == f"PASS {name}", by_name[name]


def test_the_page_ran_every_listed_test_and_nothing_else(outcomes):
    names, error = listed_names()
    assert names is not None, f"the tests could not be listed: {error}"
    results, by_name = outcomes
    assert results["passed"] + results["failed"] == len(names) > 0, (results, names)
    assert None not in by_name, f"a line of no listed test: {by_name[None]}"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
