#!/usr/bin/env python3
"""Unit tests of the page's ES modules, in headless Chromium.

Serves the page's files at / — the frame's (Modules/Frontends/WebFrontend/Public) and each
feature's (Modules/Frontends/Adapters/<Feature>/Web/Public), as app-server does — and the tests
(Tests/WebFrontendJS) at /tests/ on 127.0.0.1, opens /tests/index.html, and prints each test's
outcome. The modules are the files app-server serves, unchanged: no build step.
"""

import functools
import http.server
import os
import pathlib
import sys
import threading
import time

from web_browser_test import make_driver

ROOT = pathlib.Path(__file__).resolve().parents[2]
PUBLIC = [ROOT / "Modules" / "Frontends" / "WebFrontend" / "Public",
          *sorted((ROOT / "Modules" / "Frontends" / "Adapters").glob("*/Web/Public"))]
TESTS = ROOT / "Tests" / "WebFrontendJS"


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                      ".svg": "image/svg+xml", "": "application/octet-stream"}

    def translate_path(self, path):
        path = path.split("?", 1)[0]
        if path.startswith("/tests/"):
            bases, rest = [TESTS], path[len("/tests/"):]
        else:
            bases, rest = PUBLIC, path.lstrip("/")
        for base in bases:
            candidate = (base / rest).resolve()
            if candidate.is_relative_to(base) and candidate.is_file():
                return str(candidate)
        return str(bases[0] / "missing")

    def log_message(self, *arguments):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = make_driver()
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/tests/index.html")
        deadline = time.monotonic() + 60
        results = None
        while results is None and time.monotonic() < deadline:
            results = driver.execute_script("return window.__results || null")
            if results is None:
                time.sleep(0.1)
        if results is None:
            console = "\n".join(entry["message"] for entry in driver.get_log("browser"))
            print(f"FAIL the tests did not finish within 60 s\n{console}", flush=True)
            print("0 passed, 1 failed")
            return 1
        for line in results["lines"]:
            print(line, flush=True)
        print(f"{results['passed']} passed, {results['failed']} failed")
        return 0 if results["failed"] == 0 and results["passed"] > 0 else 1
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
