"""End-to-end tests of recording: app-cli driven in tmux through a session that uses every feature
while it records (`--record`), the record turned into a test (`record-to-test`), Ctrl-R, and
records that must be refused. Against the fixture upstreams on 127.0.0.1.

`python3 Tests/EndToEnd/recording_test.py --write-sample` records the session once more and
writes it as the committed sample (Tests/RecordingTests/Records/sample-session.jsonl) with the
test written from it (Tests/RecordingTests/Generated/SampleSessionTest.swift); it runs no test."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from support import ROOT
from support.binaries import Binaries
from support.terminal import Tmux
from support.upstreams import Upstream, WeatherAnswers, upstream_flags

SAMPLE = ROOT / "Tests" / "RecordingTests" / "Records" / "sample-session.jsonl"
SAMPLE_TEST = ROOT / "Tests" / "RecordingTests" / "Generated" / "SampleSessionTest.swift"


@pytest.fixture(scope="module")
def app_cli(binaries):
    return binaries.app_cli


def record_full_session(app_cli, pane, data_home, base, record, database):
    """Drives app-cli through every feature while it records into `record`."""
    command = " ".join([
        "env", f"XDG_DATA_HOME={data_home}", "FAVORITE_FAILURE_RATE=1", str(app_cli),
        *upstream_flags(base), "--random-source", "http", "--database", str(database),
        "--record", str(record)])
    pane.start(command)
    try:
        pane.wait_for("● Recording to")
        pane.wait_for("count: 0")
        # Counters: +, +, -, a fact, a random number, the timer for two ticks, a second counter
        # added and removed after the confirmation.
        pane.keys("+", "+", "-")
        pane.wait_for("count: 1")
        pane.keys("f")
        pane.wait_for("1 is the answer.")
        pane.keys("r")
        pane.wait_for("count: 7")
        pane.keys("t")
        pane.wait_for("count: 9", timeout=10)
        pane.keys("t")
        pane.wait_for("timer: off")
        pane.keys("a")
        pane.wait_for("Counter 2")
        pane.keys("x")
        pane.wait_for("Remove Counter 2?")
        pane.keys("y")
        pane.wait_until_gone("Counter 2")
        # Search: a place found and its forecast shown, then a search the service fails.
        pane.keys("2", "/")
        for character in "London":
            pane.keys(character)
        pane.keys("Enter")
        pane.wait_for("London, England")
        pane.keys("Enter")
        pane.wait_for("°C")
        pane.keys("/", *["BSpace"] * 6)
        for character in "fail":
            pane.keys(character)
        pane.keys("Enter")
        pane.wait_for("fail")
        pane.wait_for("rror", timeout=10)
        # Settings: a name, the digest, notifications on, °F (which asks the forecast again), and
        # everything reset after the confirmation.
        pane.keys("3", "Enter")
        for character in "Ann":
            pane.keys(character)
        pane.keys("Enter")
        pane.wait_for("Hello, Ann!")
        pane.keys("Down", "Right")
        pane.wait_for("‹ weekly ›")
        pane.keys("Down", "Enter")
        pane.wait_for("[x] on")
        pane.keys("Down", "Down", "Down", "Down", "Down", "Right")
        pane.wait_for("‹ °F ›")
        pane.keys("Down", "Enter")
        pane.wait_for("Reset")
        pane.keys("y")
        pane.wait_for("‹ °C ›")
        # Episodes: a favorite the simulated service refuses (rolled back, with an alert), then an
        # episode's screen opened and closed.
        pane.keys("4", "Enter")
        pane.wait_for("Favoriting failed.", timeout=10)
        pane.keys("Enter")
        pane.wait_until_gone("Favoriting failed.")
        pane.keys("o")
        pane.wait_for("Episodes › Functions")
        pane.keys("Escape")
        pane.wait_until_gone("Episodes › Functions")
        pane.keys("q")
        assert pane.wait_for_exit(), "app-cli did not exit after q"
    finally:
        pane.kill()
    assert record.exists(), "no record was written"


def record_to_test(app_cli, record, output="-", expect_status=0):
    result = subprocess.run([str(app_cli), "record-to-test", str(record), "--output", str(output)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == expect_status, result
    return result


def test_a_recorded_session_becomes_a_test(app_cli, pane, data_home, upstream, tmp_path):
    base = upstream
    folder = tmp_path
    record = folder / "session.jsonl"
    database = folder / "kept.sqlite"
    record_full_session(app_cli, pane, data_home, base, record, database)
    text = record.read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["record"] == "composable-session" and lines[0]["version"] == 1, lines[0]
    assert "end" in lines[-1] and lines[-1]["end"]["full"] is False, lines[-1]
    steps = [line for line in lines if "step" in line]
    assert len(steps) == lines[-1]["end"]["steps"] > 40, len(steps)
    assert {step["by"] for step in steps} == {"user", "effect"}
    # Only what the user typed and received: no database, no service address, no session ids.
    for secret in (str(database), str(folder), base, "127.0.0.1", str(data_home)):
        assert secret not in text, secret
    answered = {line["answer"] for line in lines if "answer" in line}
    assert {"factClient.fetch", "randomNumberClient.fetch", "weatherClient.search",
            "weatherClient.forecast", "favoriteClient.favorite", "settingsClient.save",
            "uuid"} <= answered, answered

    # The binary replays what it recorded: every state comes out again.
    replayed = app_cli_replay(app_cli, record)
    assert replayed.returncode == 0, replayed
    assert replayed.stdout == f"replay: every recorded state was reproduced ({len(steps)} steps)\n", \
        replayed.stdout

    source = record_to_test(app_cli, record).stdout
    # The counter's id is named once it comes up twice (`id1`, `id2`, … in order of use).
    counter = r"id\d+"
    for expected in (
        rf"await store\.send\(\.counterList\(\.counters\(\.element\(id: {counter}, action: \.incrementButtonTapped\)\)\)\) \{{",
        r"await clock\.advance\(by: \.seconds\(1\)\)",
        rf"await store\.receive\(\\\.counterList\.counters\[id: {counter}\]\.timerTicked\)",
        r"await store\.receive\(\\\.search\.searchResponse\.failure\)",
        r"RecordedError\(",
        r'await store\.send\(\.settings\(\.binding\(\.set\(\\\.displayName, "Ann"\)\)\)\)',
        r'\$0\.settings\.\$publicName\.withLock \{ \$0 = "Ann" \}',
        r"ConfirmationDialogState\(titleVisibility: \.visible\)",
        r"await store\.receive\(\\\.episodes\.path\.popFrom, 0\)",
    ):
        assert re.search(expected, source), f"{expected!r} not in the test:\n{source}"


def test_ctrl_r_records_into_a_dated_file_in_the_current_folder(app_cli, pane, data_home):
    # A folder with a short name, not pytest's: the line naming the saved file must fit the
    # 110-column window up to its "(1 steps)".
    folder = pathlib.Path(tempfile.mkdtemp(prefix="recording-e2e-"))
    command = f"cd {folder} && " + " ".join([
        "env", f"XDG_DATA_HOME={data_home}", str(app_cli), "--offline", "--database",
        ":memory:"])
    pane.start(command)
    screen = pane.wait_for("count: 0")
    assert "Recording" not in screen, screen
    # The key help names Ctrl-R and, wrapped to the window if need be, still ends in q quit.
    assert "Ctrl-R record" in screen and "q quit" in screen, screen
    pane.keys("C-r")
    recording = pane.wait_for("● Recording to session-")
    assert "Ctrl-R stop recording" in recording and "q quit" in recording, recording
    pane.keys("+")
    pane.wait_for("count: 1")
    pane.keys("C-r")
    saved = pane.wait_for("Recording saved to")
    assert "(1 steps)" in saved, saved
    assert "Ctrl-R record" in saved and "Ctrl-R stop" not in saved, saved
    pane.keys("q")
    assert pane.wait_for_exit(), "app-cli did not exit after q"
    records = list(folder.glob("session-*.jsonl"))
    assert len(records) == 1, records
    source = record_to_test(app_cli, records[0]).stdout
    assert ".incrementButtonTapped" in source and "count = 1" in source, source
    shutil.rmtree(folder, ignore_errors=True)


def test_a_damaged_record_is_refused_naming_the_line(app_cli, tmp_path):
    folder = tmp_path
    lines = SAMPLE.read_text().splitlines(keepends=True)
    # Steps 2 and 3 swapped (answers may come in any order; steps may not).
    second, third = [index for index, line in enumerate(lines) if line.startswith('{"step":')][1:3]
    reordered = list(lines)
    reordered[second], reordered[third] = lines[third], lines[second]
    cases = {
        "truncated.jsonl": (lines[:-1], "the record ends without its end line: it is truncated"),
        "reordered.jsonl": (reordered, "out of order"),
        "future.jsonl": ([lines[0].replace('"version":1', '"version":2')] + lines[1:],
                         "line 1: the record is of version 2; this program reads version 1"),
        "edited.jsonl": (lines[:3] + ['{"step":1,"by":"robot"}\n'] + lines[4:], "line 4:"),
        "garbage.jsonl": (["\x00\xff not json\n"], "line 1: not JSON"),
    }
    for name, (content, message) in cases.items():
        path = folder / name
        path.write_text("".join(content))
        result = record_to_test(app_cli, path, expect_status=1)
        assert message in result.stderr, (name, result.stderr)
        assert result.stdout == "", (name, result.stdout)
    output = folder / "never.swift"
    record_to_test(app_cli, folder / "missing.jsonl", output, expect_status=1)
    assert not output.exists()


def app_cli_replay(app_cli, record):
    return subprocess.run([str(app_cli), "replay", str(record)], capture_output=True, text=True,
                          timeout=120)


def test_app_cli_replay_names_the_first_divergence_and_refuses_a_damaged_record(app_cli, tmp_path):
    folder = tmp_path
    # A record whose sixth step says the count became 5: today's reducer makes it 1.
    lines = SAMPLE.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith('{"step":6,'))
    assert lines[index].endswith('"count"],"value":1}]}\n'), lines[index]
    lines[index] = lines[index].replace('"value":1}]}', '"value":5}]}')
    edited = folder / "edited.jsonl"
    edited.write_text("".join(lines))
    result = app_cli_replay(app_cli, edited)
    assert result.returncode == 1, result
    assert result.stderr.startswith("replay: the session diverges at step 6 of 58:\n"), result.stderr
    assert "−         _count: 5" in result.stderr and "+         _count: 1" in result.stderr, \
        result.stderr
    truncated = folder / "truncated.jsonl"
    truncated.write_text("".join(lines[:10]))
    result = app_cli_replay(app_cli, truncated)
    assert result.returncode == 2, result
    assert result.stderr == f"app-cli: {truncated}: line 10: the record ends without its end line: it is truncated\n", \
        result.stderr
    assert app_cli_replay(app_cli, folder / "missing.jsonl").returncode == 2


def replay(record):
    return subprocess.run([str(ROOT / "Tools" / "replay-record"), str(record)],
                          capture_output=True, text=True, timeout=1800, cwd=ROOT)


@pytest.mark.builds
def test_a_record_replays_against_todays_reducers_and_a_divergence_is_named(tmp_path):
    """Tools/replay-record builds this checkout's app-cli and the generated test."""
    result = replay(SAMPLE)
    assert result.returncode == 0, result
    assert "every recorded state was reproduced (58 steps)" in result.stdout, result.stdout
    # A record whose sixth step says the count became 5: today's reducer makes it 1.
    folder = tmp_path
    lines = SAMPLE.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith('{"step":6,'))
    assert lines[index].endswith('"count"],"value":1}]}\n'), lines[index]
    lines[index] = lines[index].replace('"value":1}]}', '"value":5}]}')
    edited = folder / "edited.jsonl"
    edited.write_text("".join(lines))
    result = replay(edited)
    assert result.returncode == 1, result
    assert "the session diverges at step 6 of 58" in result.stdout, result.stdout
    assert "−         _count: 5," in result.stdout and "+         _count: 1," in result.stdout, \
        result.stdout
    assert not (ROOT / "Tests/RecordingTests/Generated/ReplayedSessionTest.swift").exists()
    refused = replay(folder / "missing.jsonl")
    assert refused.returncode == 2 and "cannot read" in refused.stderr, refused


def write_sample():
    """Records the session once more and writes it as the committed sample, with its test."""
    app_cli = Binaries().app_cli
    tmux = Tmux()
    try:
        with Upstream(WeatherAnswers) as base, tempfile.TemporaryDirectory(prefix="recording-sample-") as folder:
            folder = pathlib.Path(folder)
            record = folder / "sample-session.jsonl"
            record_full_session(app_cli, tmux.pane("app-cli-recording"), folder, base, record,
                                folder / "kept.sqlite")
            SAMPLE.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(record, SAMPLE)
            SAMPLE_TEST.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([str(app_cli), "record-to-test", str(SAMPLE), "--output", str(SAMPLE_TEST),
                            "--suite", "SampleSessionTests", "--test", "sampleSession"], check=True)
            print(f"wrote {SAMPLE.relative_to(ROOT)} and {SAMPLE_TEST.relative_to(ROOT)}")
    finally:
        tmux.stop()


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-sample"]:
        write_sample()
        sys.exit(0)
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
