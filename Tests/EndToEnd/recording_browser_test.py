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

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support.browser import console_errors, fetch, live, panel_text, wait


def start_server(services, *extra):
    """app-server on a port it chooses, offline, keeping nothing."""
    return services.app_server("--offline", "--database", ":memory:", *extra, port=0,
                               stop_within=20)


def listed_steps(driver):
    """The numbers of the steps the panel lists, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#devtools-steps > li')].map(li => li.dataset.step)")


def test_a_visitor_records_their_session_and_downloads_it_and_its_test(binaries, services, browsers, tmp_path):
    server = start_server(services, "--allow-recording")
    driver = browsers.new()
    console = []
    try:
        driver.get(server.url + "counters?devtools")
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
        driver.save_screenshot(str(tmp_path / "panel.png"))

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
            replayed = subprocess.run([str(binaries.app_cli), "replay", str(path)], capture_output=True,
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
        other = browsers.new()
        try:
            other.get(server.url)
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
        driver.save_screenshot(str(tmp_path / "failed.png"))
        print(f"  screenshot {tmp_path / 'failed.png'}")
        raise
    finally:
        driver.quit()
        server.stop()


def test_alt_shift_d_opens_the_panel_and_a_server_without_the_flag_records_nothing(services, browsers):
    server = start_server(services)
    driver = browsers.new()
    try:
        driver.get(server.url)
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


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
