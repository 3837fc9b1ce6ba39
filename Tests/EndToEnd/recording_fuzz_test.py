"""Random sessions recorded under load: every record replays, and every test written from a
record compiles and passes.

Terminal: `app-cli --offline --record FILE` in tmux, a random sequence of the app's keys over every
screen — tabs, counters (add, +/-, fact, random number, timer), search (typing, a result, the
forecast, °C/°F in settings), settings, episodes (open, favorite, close) — with random pauses.
Web: `app-server --allow-recording` in headless Chromium, the developer panel recording, random
clicks, typing, choices and keys on whatever the page shows. Two busy processes load the CPU all
the while. Each record is replayed with `app-cli replay` (several times; the longest one twenty
times), then every record is written as a TestStore test (`record-to-test` for the terminal's, the
panel's "Download as test" for the web's) into `Tests/RecordingTests/Generated/Fuzz/`; they are
built together and run three times, and removed afterwards.

Every session prints its seed. A failing one is rerun alone with
`Tools/recording-fuzz --seed S --terminal 1 --web 0` (`--terminal 0 --web 1` for a web seed),
which sets this file's RECORDING_FUZZ_* variables; the records of a failing run are kept and
their folder noted. Defaults: 20 terminal sessions of 40 keys, 5 web sessions of 30 actions.

The last test builds the repository's tests with the written ones (`swift build --build-tests`
in this checkout: marked `builds`, minutes on 2 cores). The records and their replays are made
by the first two tests; the other two continue from them.
"""

import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from support import ROOT
from support.browser import fetch, live, panel_text, wait
from support.order import continues

GENERATED = ROOT / "Tests" / "RecordingTests" / "Generated" / "Fuzz"
SUITE_PREFIX = "RecordingFuzz"

TERMINAL_SESSIONS = int(os.environ.get("RECORDING_FUZZ_TERMINAL", "20"))
WEB_SESSIONS = int(os.environ.get("RECORDING_FUZZ_WEB", "5"))
FIRST_SEED = int(os.environ.get("RECORDING_FUZZ_SEED", str(random.randrange(1 << 31))))
KEYS_PER_SESSION = int(os.environ.get("RECORDING_FUZZ_KEYS", "40"))
REPLAYS = 3
REPLAYS_OF_THE_LONGEST = 20
TEST_RUNS = 3

# Keys a person uses on the four screens; `q` (quit) and Ctrl keys are left out.
KEYS = (["1", "2", "3", "4"] * 3 + ["Up", "Down", "Left", "Right"] * 3 + ["Enter"] * 3
        + ["Escape", "Tab", "BSpace", "+", "-", "a", "f", "r", "t", "x", "o", "/", "l", "n",
           "d", "s", "e", " "])
PAUSES = [0, 0, 0.05, 0.1, 0.3, 0.6]
WORDS = ["lon", "seo", "par", "new", "Ann", "x", ""]



class Fuzz:
    """What the file's tests share: the app-cli measured, the folder of the records, every
    session recorded so far (name, seed, path, steps) and the failures found."""

    def __init__(self, cli, folder):
        self.cli = cli
        self.folder = folder
        self.records = []
        self.failures = []


@pytest.fixture(scope="module")
def fuzz(binaries, notes, request):
    # Another build of app-cli may be measured (Tools/recording-fuzz --app-cli).
    cli = pathlib.Path(os.environ.get("RECORDING_FUZZ_APP_CLI") or binaries.app_cli)
    state = Fuzz(cli, pathlib.Path(tempfile.mkdtemp(prefix="recording-fuzz-")))
    failed_before = request.session.testsfailed
    yield state
    if state.failures or request.session.testsfailed > failed_before:
        notes(f"recording fuzz: records kept in {state.folder}")
    else:
        shutil.rmtree(state.folder, ignore_errors=True)


class Busy:
    """Two processes that keep both cores busy while they run."""

    def __enter__(self):
        self.processes = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(2)]
        return self

    def __exit__(self, *_):
        for process in self.processes:
            process.kill()
            process.wait()


def steps_in(path):
    return sum(1 for line in path.read_text().splitlines() if line.startswith('{"step"'))


def replay(fuzz, path):
    """`app-cli replay`: (exit status, everything it printed)."""
    result = subprocess.run([str(fuzz.cli), "replay", str(path)], capture_output=True, text=True,
                            timeout=300)
    return result.returncode, (result.stdout + result.stderr).strip()


def check_replays(fuzz, name, seed, path, count):
    verdicts = [replay(fuzz, path) for _ in range(count)]
    exact = sum(code == 0 for code, _ in verdicts)
    wrong = "; ".join(f"{code}: {text.splitlines()[0][:100] if text else ''}"
                      for code, text in verdicts if code != 0)
    print(f"  {name} seed {seed}: {steps_in(path)} steps, {exact}/{count} replays exact"
          + (f" — {wrong}" if wrong else ""), flush=True)
    # What a failed replay said in full, kept beside the record and shown: the divergence's
    # message is what a root cause is found from.
    for attempt, (code, text) in enumerate(verdicts, 1):
        if code != 0:
            report = path.with_suffix(f".replay-{attempt}.txt")
            report.write_text(text + "\n")
            print("    " + "\n    ".join(text.splitlines()[:40]), flush=True)
    if exact != count:
        fuzz.failures.append(f"{name} seed {seed}: {wrong}")
    return exact == count


# Terminal sessions


def terminal_session(fuzz, tmux, seed):
    chance = random.Random(seed)
    home = fuzz.folder / f"home-{seed}"
    home.mkdir()
    record = fuzz.folder / f"terminal-{seed}.jsonl"
    pane = tmux.pane(f"recording-fuzz-{seed}")
    pane.start(f"env HOME={home} XDG_DATA_HOME={home} {fuzz.cli} --offline --record {record}",
               columns=110, rows=40)
    try:
        pane.wait_for("Counter", timeout=60)
        for _ in range(KEYS_PER_SESSION):
            pane.keys(chance.choice(KEYS))
            time.sleep(chance.choice(PAUSES))
        pane.keys("Escape", "Escape", "1")
        time.sleep(0.5)
        pane.keys("q")
        if not pane.wait_for_exit(timeout=20):
            pane.keys("q")
            assert pane.wait_for_exit(timeout=10), f"app-cli did not quit:\n{pane.screen()}"
    finally:
        pane.kill()
    assert record.exists(), f"terminal seed {seed}: no record was written"
    return record


def test_random_terminal_sessions_replay_exactly(fuzz, tmux, notes):
    notes(f"recording fuzz: {TERMINAL_SESSIONS} terminal sessions, {KEYS_PER_SESSION} keys each, "
          f"seeds from {FIRST_SEED}")
    before = len(fuzz.failures)
    with Busy():
        for index in range(TERMINAL_SESSIONS):
            seed = FIRST_SEED + index
            record = terminal_session(fuzz, tmux, seed)
            fuzz.records.append(("terminal", seed, record, steps_in(record)))
            check_replays(fuzz, "terminal", seed, record, REPLAYS)
    assert len(fuzz.failures) == before, fuzz.failures[before:]


# Web sessions

# What the random visitor may use: anything the page shows, except the developer panel.
CANDIDATES = """
  const inPanel = element => element.closest('#devtools') !== null;
  return [...document.querySelectorAll(
      'button, a[href], input, select, textarea, [role=tab], [tabindex]')]
    .filter(element => !inPanel(element) && !element.disabled && element.offsetParent !== null
      && element.getAttribute('download') === null);
"""


def web_action(driver, chance):
    """One random thing a visitor does; returns what it was (for the log of a failure)."""
    if chance.random() < 0.1:
        # Keys go to the focused element, but never to the panel's buttons: Space on "Stop
        # recording" would end the recording this test reads.
        driver.execute_script(
            "if (document.activeElement?.closest('#devtools')) document.activeElement.blur()")
        key = chance.choice([("Escape", Keys.ESCAPE), ("Enter", Keys.ENTER), ("Tab", Keys.TAB),
                             ("Space", Keys.SPACE)])
        driver.switch_to.active_element.send_keys(key[1])
        return f"key {key[0]}"
    candidates = driver.execute_script(CANDIDATES)
    if not candidates:
        return "nothing to use"
    element = chance.choice(candidates)
    tag = element.tag_name
    kind = (element.get_attribute("type") or "").lower()
    if tag == "select":
        options = Select(element).options
        choice = chance.randrange(len(options))
        Select(element).select_by_index(choice)
        return f"select option {choice}"
    if tag == "textarea" or (tag == "input" and kind in ("", "text", "search", "email")):
        word = chance.choice(WORDS)
        element.clear()
        element.send_keys(word)
        if chance.random() < 0.5:
            element.send_keys(Keys.ENTER)
        return f"type {word!r} into {element.get_attribute('id') or tag}"
    if tag == "input" and kind in ("number", "range"):
        element.send_keys(chance.choice([Keys.ARROW_UP, Keys.ARROW_DOWN]))
        return f"arrow on {kind}"
    element.click()
    return f"click {tag} {element.get_attribute('data-do') or element.text[:20]!r}"


def web_session(fuzz, services, chromium, seed, clicks):
    chance = random.Random(seed)
    server = services.app_server("--offline", "--database", ":memory:", "--allow-recording",
                                 port=0, stop_within=20)
    driver = chromium.driver()
    done = []
    try:
        driver.get(server.url + "counters?devtools")
        live(driver)
        wait(driver, lambda: "Not recording." in panel_text(driver), "the developer panel")
        driver.find_element(By.ID, "devtools-toggle").click()
        wait(driver, lambda: "Recording: 0 of" in panel_text(driver), "recording to start")
        for _ in range(clicks):
            try:
                done.append(web_action(driver, chance))
            except WebDriverException as error:
                # The element went away or is covered by what the last action opened: the
                # visitor's hand missed; the session goes on.
                done.append(f"missed ({type(error).__name__})")
            time.sleep(chance.choice(PAUSES))
        time.sleep(1)
        status, body = fetch(driver, "/api/session/recording/record")
        assert status == 200, (status, body)
        record = fuzz.folder / f"web-{seed}.jsonl"
        record.write_text(body)
        status, test = fetch(driver, "/api/session/recording/test")
        assert status == 200, (status, test)
        (fuzz.folder / f"web-{seed}.swift").write_text(test)
        return record
    except Exception:
        driver.save_screenshot(str(fuzz.folder / f"web-{seed}.png"))
        print(f"  web seed {seed}: what the visitor did: {done}", flush=True)
        raise
    finally:
        driver.quit()
        server.stop()


def test_random_web_sessions_replay_exactly(fuzz, services, chromium, notes):
    first = FIRST_SEED + TERMINAL_SESSIONS
    notes(f"recording fuzz: {WEB_SESSIONS} web sessions, 30 actions each, seeds from {first}")
    before = len(fuzz.failures)
    with Busy():
        for index in range(WEB_SESSIONS):
            seed = first + index
            record = web_session(fuzz, services, chromium, seed, clicks=30)
            steps = steps_in(record)
            assert steps > 0, f"web seed {seed}: the record has no step"
            fuzz.records.append(("web", seed, record, steps))
            check_replays(fuzz, "web", seed, record, REPLAYS)
    assert len(fuzz.failures) == before, fuzz.failures[before:]


@continues(test_random_terminal_sessions_replay_exactly, test_random_web_sessions_replay_exactly)
def test_the_longest_record_replays_the_same_way_every_time(fuzz):
    assert fuzz.records, "no session was recorded"
    name, seed, path, steps = max(fuzz.records, key=lambda entry: entry[3])
    with Busy():
        assert check_replays(fuzz, name, seed, path, REPLAYS_OF_THE_LONGEST), fuzz.failures[-1]


# The tests written from the records


def write_test(fuzz, name, seed, path):
    suite = f"{SUITE_PREFIX}{name.capitalize()}{seed}Tests"
    output = GENERATED / f"{suite}.swift"
    if name == "web":
        # The panel's download, as a developer would add it: only the suite's name changes.
        source = (fuzz.folder / f"web-{seed}.swift").read_text()
        assert "struct RecordedSessionTests {" in source, source[:400]
        output.write_text(source.replace("struct RecordedSessionTests {", f"struct {suite} {{", 1))
    else:
        written = subprocess.run(
            [str(fuzz.cli), "record-to-test", str(path), "--output", str(output), "--suite", suite,
             "--test", "session"], capture_output=True, text=True, timeout=120)
        assert written.returncode == 0, written
    return suite


@pytest.mark.builds
@continues(test_random_terminal_sessions_replay_exactly, test_random_web_sessions_replay_exactly)
def test_every_record_becomes_a_test_that_compiles_and_passes(fuzz, notes):
    assert fuzz.records, "no session was recorded"
    GENERATED.mkdir(parents=True, exist_ok=True)
    try:
        suites = {write_test(fuzz, name, seed, path): (name, seed)
                  for name, seed, path, _ in fuzz.records}
        build = subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, capture_output=True,
                               text=True)
        errors = [line for line in (build.stdout + build.stderr).splitlines() if "error:" in line]
        assert build.returncode == 0, "the written tests do not compile:\n" + "\n".join(errors[:30])
        with Busy():
            for run in range(1, TEST_RUNS + 1):
                result = subprocess.run(
                    ["swift", "test", "--skip-build", "--filter", SUITE_PREFIX], cwd=ROOT,
                    capture_output=True, text=True, timeout=900)
                output = result.stdout + result.stderr
                passed = re.search(rf"Test run with (\d+) tests? .*passed", output)
                marked = [line for line in output.splitlines() if line.startswith("✘")]
                failed = [seed for suite, (_, seed) in suites.items()
                          if any(suite in line for line in marked)]
                notes(f"recording fuzz: run {run}: {len(suites)} written tests, "
                      + (f"{passed.group(1)} passed" if passed and result.returncode == 0
                         else f"failed (seeds {failed or 'unknown'})"))
                if result.returncode != 0 or not passed or int(passed.group(1)) != len(suites):
                    shutil.copytree(GENERATED, fuzz.folder / "written-tests", dirs_exist_ok=True)
                    issues = [line for line in output.splitlines() if "recorded an issue" in line]
                    fuzz.failures.append(f"written tests, run {run}")
                    raise AssertionError("a written test failed:\n" + "\n".join(issues[:20]))
    finally:
        shutil.rmtree(GENERATED, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
