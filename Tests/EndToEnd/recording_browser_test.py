"""End-to-end tests of recording on the web: app-server with --allow-recording in headless
Chromium — the developer panel (?devtools, Alt+Shift+D) records the visitor's own session, lists
each step with its changes, and downloads the record and the test written from it; another
visitor gets nothing of it; a server without the flag records nothing."""

import json
import pathlib
import re
import subprocess
import sys
import tempfile
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import runner
from preview_server_test import console_errors, live, wait
from web_browser_test import make_driver

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "app-server"
CLI = ROOT / ".build" / "debug" / "app-cli"
SHOTS = pathlib.Path(tempfile.mkdtemp(prefix="recording-browser-e2e-"))


class Server:
    """app-server on a free port, offline, keeping nothing."""

    def __init__(self, *extra):
        self.process = subprocess.Popen(
            [str(BINARY), "--offline", "--database", ":memory:", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.process.stdout:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+/)", line)
            if match:
                self.base = match.group(1)
                return
        raise AssertionError("app-server did not say where it listens")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def fetch(driver, path, method="GET"):
    """`path` fetched by the page (with its cookies): (status, body)."""
    return tuple(driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch({json.dumps(path)}, {{method: {json.dumps(method)}}})"
        ".then(async r => done([r.status, await r.text()]));"))


def listed_steps(driver):
    """The numbers of the steps the panel lists, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#devtools-steps > li')].map(li => li.dataset.step)")


def panel_text(driver):
    return driver.execute_script(
        "const p = document.getElementById('devtools'); return p && !p.hidden ? p.innerText : ''")


def test_a_visitor_records_their_session_and_downloads_it_and_its_test():
    server = Server("--allow-recording")
    driver = make_driver()
    console = []
    try:
        driver.get(server.base + "counters?devtools")
        live(driver)
        wait(driver, lambda: "Not recording." in panel_text(driver), "the panel, not recording")
        # Nothing to download before recording starts.
        assert fetch(driver, "/api/session/recording/record")[0] == 404
        driver.find_element(By.ID, "devtools-toggle").click()
        wait(driver, lambda: "Recording: 0 of at most 2000 steps." in panel_text(driver),
             "recording to start")
        increment = driver.find_element(By.CSS_SELECTOR, "[data-do='counter.increment']")
        increment.click()
        increment.click()
        wait(driver, lambda: "Recording: 2 of at most 2000 steps." in panel_text(driver),
             "two steps in the panel")
        # Each refresh read only the steps after those it had: each step is listed once.
        assert listed_steps(driver) == ["1", "2"], listed_steps(driver)
        increment.click()
        wait(driver, lambda: listed_steps(driver) == ["1", "2", "3"], "a third step added")
        text = panel_text(driver)
        assert ".counterList(.counters(.element(id: UUID(" in text, text
        assert "action: .incrementButtonTapped)))" in text, text
        assert re.search(r"\.counterList\.counters\[id: UUID\([0-9A-F]{8}…\)\]\.count = 3", text), text
        driver.save_screenshot(str(SHOTS / "panel.png"))

        status, record = fetch(driver, "/api/session/recording/record")
        assert status == 200, (status, record)
        lines = [json.loads(line) for line in record.splitlines()]
        assert lines[0]["record"] == "composable-session"
        assert [line["step"] for line in lines if "step" in line] == [1, 2, 3]
        assert "session" not in json.dumps(lines[1:]).lower(), "the record names the session"
        # The terminal app replays what the web recorded: the same record, the same reducers.
        with tempfile.TemporaryDirectory(prefix="web-record-") as folder:
            path = pathlib.Path(folder) / "session.jsonl"
            path.write_text(record)
            replayed = subprocess.run([str(CLI), "replay", str(path)], capture_output=True,
                                      text=True, timeout=120)
        assert replayed.returncode == 0, replayed
        assert replayed.stdout == "replay: every recorded state was reproduced (3 steps)\n", \
            replayed.stdout
        status, test = fetch(driver, "/api/session/recording/test")
        assert status == 200, (status, test)
        assert "struct RecordedSessionTests" in test, test
        assert re.search(r"await store\.send\(\.counterList\(\.counters\(\.element\(id: id\d+, "
                         r"action: \.incrementButtonTapped\)\)\)\) \{\n\s+\$0\.counterList\.counters"
                         r"\[id: id\d+\]\?\.count = 2", test), test
        # The links download the same files.
        assert driver.find_element(By.ID, "devtools-record").get_attribute("download") == "session.jsonl"
        assert driver.find_element(By.ID, "devtools-test").get_attribute("download") == \
            "RecordedSessionTests.swift"

        # Another visitor gets nothing of this session's recording.
        other = make_driver()
        try:
            other.get(server.base)
            live(other)
            status, body = fetch(other, "/api/session/recording/record")
            assert status == 404 and "not being recorded" in body, (status, body)
        finally:
            other.quit()

        # Stopping forgets the recording.
        driver.find_element(By.ID, "devtools-toggle").click()
        wait(driver, lambda: "Not recording." in panel_text(driver), "recording to stop")
        assert fetch(driver, "/api/session/recording/record")[0] == 404
        # Recording again lists the new recording's steps only.
        driver.find_element(By.ID, "devtools-toggle").click()
        wait(driver, lambda: "Recording: 0 of at most 2000 steps." in panel_text(driver),
             "recording to start again")
        assert listed_steps(driver) == [], listed_steps(driver)
        driver.find_element(By.CSS_SELECTOR, "[data-do='counter.increment']").click()
        wait(driver, lambda: listed_steps(driver) == ["1"], "the new recording's one step")
        # The 404s this test asked for are the only network errors; the page logs nothing.
        errors = [message for message in console_errors(driver, console)
                  if "/api/session/recording" not in message]
        assert not errors, errors
    except Exception:
        driver.save_screenshot(str(SHOTS / "failed.png"))
        print(f"  screenshot {SHOTS / 'failed.png'}")
        raise
    finally:
        driver.quit()
        server.stop()


def test_alt_shift_d_opens_the_panel_and_a_server_without_the_flag_records_nothing():
    server = Server()
    driver = make_driver()
    try:
        driver.get(server.base)
        live(driver)
        assert panel_text(driver) == ""
        ActionChains(driver).key_down(Keys.ALT).key_down(Keys.SHIFT).send_keys("d") \
            .key_up(Keys.SHIFT).key_up(Keys.ALT).perform()
        wait(driver, lambda: "does not record sessions" in panel_text(driver), "the panel")
        assert driver.find_element(By.ID, "devtools-toggle").get_attribute("disabled") is not None
        for path, method in (("/api/session/recording", "POST"),
                             ("/api/session/recording/record", "GET"),
                             ("/api/session/recording/test", "GET")):
            status, body = fetch(driver, path, method)
            assert status == 404 and "--allow-recording" in body, (path, status, body)
    finally:
        driver.quit()
        server.stop()


def main():
    for binary in (BINARY, CLI):
        if not binary.exists():
            subprocess.run(["swift", "build", "--product", binary.name], cwd=ROOT, check=True)
    return runner.run_tests(globals())


if __name__ == "__main__":
    sys.exit(main())
