"""End-to-end tests of app-cli: the built binary, driven in a real pseudo-terminal through tmux,
and its one-shot subcommands, against fixture upstreams on 127.0.0.1."""

import datetime
import http.client
import json
import os
import pathlib
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import zoneinfo

import pytest

from support.upstreams import forecast_fixture, upstream_flags


class AppCli:
    """The binary under test, and the run's data folder (every test keeps its data in a folder
    of its own, never in the user's data directory: the binary is started with XDG_DATA_HOME
    pointing there, under tmux too)."""

    def __init__(self, path, data_home):
        self.path = path
        self.data_home = data_home

    def command(self, *arguments, data_home=None):
        """The shell command that starts app-cli with its data under `data_home` (a new folder
        unless given: the interactive app keeps counters, favorites and settings between runs,
        and one test's must not show in another's)."""
        data_home = data_home or tempfile.mkdtemp(dir=self.data_home)
        return " ".join(["env", f"XDG_DATA_HOME={data_home}", str(self.path), *map(str, arguments)])

    def folder(self):
        """A new folder of the run's data folder."""
        return pathlib.Path(tempfile.mkdtemp(dir=self.data_home))

    def run(self, *arguments, expect_status=0):
        result = subprocess.run([str(self.path), *arguments], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode == expect_status, (
            f"exit {result.returncode}, expected {expect_status}\nstdout: {result.stdout}\n"
            f"stderr: {result.stderr}")
        return result


@pytest.fixture(scope="module")
def cli(binaries, data_home):
    return AppCli(binaries.app_cli, data_home)


# --- tests ------------------------------------------------------------------------------------

def test_interactive_search_forecast_counter_fact_and_quit(cli, pane, upstream):
    pane.start(cli.command(*upstream_flags(upstream), data_home=cli.folder()), 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("+", "+", "+")
    pane.wait_for("count: 3")
    pane.keys("f")
    pane.wait_for("fact: 3 is the answer.")

    pane.keys("2", "/")
    for character in "London":
        pane.keys(character)
    pane.keys("Enter")
    found = pane.wait_for("London, England, United Kingdom")
    assert "London, Ontario, Canada" in found, found
    pane.keys("Enter")
    forecast = pane.wait_for("Forecast for London")
    days = forecast_fixture()["daily"]
    first_max = f"{days['temperature_2m_max'][0]:.1f}°C"
    assert "Today" in forecast and first_max in forecast, forecast
    assert forecast.count("█") >= len(days["time"]), forecast

    pane.keys("3", "Enter")
    for character in "Ada":
        pane.keys(character)
    pane.keys("Enter")
    pane.wait_for("Hello, Ada!")

    pane.keys("4", "Enter")
    pane.wait_for("♥ Functions")

    pane.keys("q")
    assert pane.wait_for_exit(), "app-cli did not exit on q"


def test_a_small_window_keeps_the_header_and_a_paste_does_not_wrap(cli, pane):
    pane.start(cli.command("--offline", data_home=cli.folder()), 40, 10)
    pane.wait_for("[1 Counters]")
    for _ in range(6):
        pane.keys("a")  # six more counters: more lines than the window has
    shown = pane.wait_for("more lines")
    lines = shown.splitlines()
    assert lines[0] == "Composable App", shown
    assert all(len(line) <= 40 for line in lines), shown
    pane.keys("2", "/")
    pane.paste("Seoul " * 800)  # a 4,800-character paste
    shown = pane.wait_for("Search: Seoul")
    lines = shown.splitlines()
    assert lines[0] == "Composable App" and lines[1].startswith(" 1 Counters"), shown
    query = next(line for line in lines if line.startswith("Search: "))
    assert query.endswith("…") and len(query) == 40, shown
    pane.resize(30, 5)
    pane.keys("Escape")
    pane.wait_for("Too small (30×5): needs 20×6")
    pane.keys("q")


def wait_for_exit(pane):
    assert pane.wait_for_exit(), "app-cli did not exit"


def test_favorites_and_settings_survive_a_restart(cli, pane):
    folder = cli.folder()
    database = folder / "nested" / "kept.sqlite"
    command = cli.command("--offline", "--database", database)
    pane.start(command, 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("4")
    pane.wait_for("♡ Functions")
    pane.keys("Down", "Enter")  # the second episode
    pane.wait_for("♥ Side Effects")
    pane.keys("3", "Enter")
    for character in "Grace":
        pane.keys(character)
    pane.keys("Enter")
    pane.wait_for("Hello, Grace!")
    pane.keys("Down", "Down", "Down", "Down", "Down", "Down", "Down", "Right")  # the unit
    pane.wait_for("‹ °F ›")
    pane.keys("q")
    wait_for_exit(pane)

    # The file is SQLite in WAL mode, with the rows the app acknowledged.
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = dict(connection.execute(
            "SELECT name, value FROM setting WHERE owner = 'local'").fetchall())
        assert names["displayName"] == "Grace" and names["temperatureUnit"] == "fahrenheit", names
        assert connection.execute("SELECT count(*) FROM favorite").fetchone()[0] == 1

    # A new process shows them again.
    pane.start(command, 110, 40)
    pane.wait_for("Hello, Grace!")
    pane.keys("4")
    listed = pane.wait_for("♥ Side Effects")
    assert "♡ Functions" in listed, listed
    pane.keys("3")
    pane.wait_for("‹ °F ›")
    pane.keys("q")
    wait_for_exit(pane)


def test_counters_and_their_timers_survive_a_restart(cli, pane):
    """Counters are the user's, like settings and favorites: a new process shows the counts,
    the facts and the timers that were running (they run again), on the first tab."""
    database = cli.folder() / "kept.sqlite"
    command = cli.command("--offline", "--database", database)
    pane.start(command, 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("+", "+", "+")
    pane.wait_for("count: 3")
    pane.keys("f")
    pane.wait_for("3 is")
    pane.keys("a")
    pane.wait_for("Counter 2")
    pane.keys("Down", "-", "-", "t")
    pane.wait_for("timer: on")
    pane.keys("2")  # another tab when quitting: the app still opens on the counters
    pane.wait_for("[2 Search]")
    pane.keys("q")
    wait_for_exit(pane)

    pane.start(command, 110, 40)
    restored = pane.wait_for("[1 Counters]")
    assert re.search(r"Counter 1 +count: +3 +timer: off", restored), restored
    assert "fact: 3 is" in restored, restored
    second = re.compile(r"Counter 2 +count: +(-?\d+) +timer: on")
    kept = second.search(restored)
    assert kept, restored
    # The second counter's timer runs again: its count climbs from where it was kept.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ticking = pane.screen()
        now = second.search(ticking)
        if now and int(now.group(1)) >= int(kept.group(1)) + 2:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the kept timer does not run:\n{pane.screen()}")
    assert re.search(r"Counter 1 +count: +3 ", ticking), ticking
    pane.keys("q")
    wait_for_exit(pane)


def test_a_favorite_whose_screen_closes_mid_save_is_not_kept_when_the_save_fails(cli, pane):
    """The newcomer's sequence: every save fails; open an episode, favorite it and leave the
    screen at once. The save goes on without its screen; its failure shows on the list, OK puts
    the heart back, and a new process shows nothing kept."""
    folder = cli.folder()
    command = " ".join(["env", "FAVORITE_FAILURE_RATE=1",
                        cli.command("--offline", "--database", folder / "kept.sqlite")])
    pane.start(command, 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("4")
    pane.wait_for("♡ Functions")
    pane.keys("o")
    pane.wait_for("Episodes › Functions")
    pane.keys("f", "Escape")
    listed = pane.wait_for("Favoriting failed. (Functions)")
    assert "♥ Functions" in listed, listed
    assert "Enter/Esc/Space OK (puts the ♥ back)" in listed, listed
    pane.keys("Enter")
    pane.wait_until_gone("Favoriting failed.")
    assert "♡ Functions" in pane.screen(), pane.screen()
    pane.keys("q")
    wait_for_exit(pane)
    pane.start(command, 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("4")
    assert "♡ Functions" in pane.wait_for("Side Effects")
    pane.keys("q")
    wait_for_exit(pane)


def test_a_database_that_cannot_be_opened_stops_with_a_message(cli):
    blocker = cli.folder() / "a-file"
    blocker.write_text("not a folder")
    result = subprocess.run(
        ["script", "-qec", cli.command("--offline", "--database", blocker / "app.sqlite"), "/dev/null"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, (result.returncode, result.stdout)
    assert "could not be opened" in result.stdout and "a-file" in result.stdout, result.stdout


def test_one_shot_commands_create_no_data(cli):
    data_home = cli.folder()
    subprocess.run(cli.command("fact", "7", "--offline", data_home=data_home), shell=True,
                   check=True, capture_output=True, timeout=60)
    assert list(data_home.iterdir()) == [], list(data_home.iterdir())


def test_ctrl_c_exits(cli, pane):
    pane.start(cli.command("--offline"), 100, 30)
    pane.wait_for("[1 Counters]")
    pane.keys("t")
    pane.wait_for("timer: on")
    pane.keys("C-c")
    assert pane.wait_for_exit(), "app-cli did not exit on Ctrl-C"


def seoul_today():
    """Today in Seoul; read before and after a check, so that a midnight in between cannot fail it."""
    return datetime.datetime.now(zoneinfo.ZoneInfo("Asia/Seoul")).date()


def test_offline_interactive_seoul_today_in_celsius_then_fahrenheit(cli, pane):
    pane.start(cli.command("--offline"), 110, 40)
    pane.wait_for("[1 Counters]")
    pane.keys("2", "/")
    for character in "seo":
        pane.keys(character)
    results = pane.wait_for("Seoul, South Korea", timeout=30)
    listed = [line.strip() for line in results.splitlines() if ", " in line]
    assert listed[0] == "Seoul, South Korea", results
    assert "Offline: places from GeoNames" in results, results
    assert "Open-Meteo" not in results, results
    pane.keys("Escape")
    pane.wait_for("› Seoul, South Korea")
    before = seoul_today()
    pane.keys("Enter")
    forecast = pane.wait_for("Forecast for Seoul  (offline estimate)")
    after = seoul_today()
    rows = [line.strip() for line in forecast.splitlines() if "█" in line]
    assert len(rows) == 7, forecast
    assert rows[0].startswith("Today") and rows[0].endswith("°C"), rows[0]
    # The second row is tomorrow in Seoul, named by its weekday.
    tomorrows = {(day + datetime.timedelta(days=1)).strftime("%a") for day in (before, after)}
    assert rows[1][:3] in tomorrows, (rows[1], tomorrows)

    pane.keys("3")
    pane.wait_for("Temperature unit")
    for _ in range(7):
        pane.keys("Down")
    pane.wait_for("› Temperature unit")
    pane.keys("Enter")
    pane.wait_for("‹ °F ›")
    pane.keys("2")
    fahrenheit = pane.wait_for("°F  ")
    rows = [line.strip() for line in fahrenheit.splitlines() if "█" in line]
    assert len(rows) == 7 and all(row.endswith("°F") for row in rows), fahrenheit
    assert "Forecast for Seoul  (offline estimate)" in fahrenheit, fahrenheit


def test_no_color_turns_colours_off(cli, pane):
    for environment in ("NO_COLOR=1", "TERM=dumb", ""):
        pane.start(f"env {environment} {cli.path} --offline", 100, 30)
        try:
            pane.wait_for("[1 Counters]")
            coloured = pane.screen(escapes=True)
            has_colour = "\x1b[" in coloured
            assert has_colour == (environment == ""), (environment, repr(coloured[:200]))
        finally:
            pane.kill()


def test_offline_search_finds_what_a_user_expects(cli):
    def first(query):
        output = json.loads(cli.run("search", query, "--json", "--offline").stdout)
        assert output["results"], f"nothing found for {query!r}"
        return output["results"][0]
    seoul = first("seo")
    assert (seoul["name"], seoul["country"]) == ("Seoul", "South Korea"), seoul
    assert first("Seoul")["id"] == seoul["id"]
    assert first("sao paulo")["name"] == "São Paulo"
    assert first("São Paulo")["name"] == "São Paulo"
    assert first("zurich")["name"] == "Zürich"
    assert first("ZÜRICH")["name"] == "Zürich"
    assert json.loads(cli.run("search", "Zzyzx", "--json", "--offline").stdout) == {"results": []}
    # A place found by another of its names says which, in JSON and in text.
    jakarta = [place for place in json.loads(cli.run("search", "new york", "--json", "--offline").stdout)[
        "results"] if place["name"] == "Jakarta"]
    assert jakarta and jakarta[0]["matchedName"] == "New York Van Java", jakarta
    assert "matchedName" not in first("new york"), first("new york")
    assert "\tJakarta, Jakarta Raya, Indonesia (“New York Van Java”)\t" in cli.run(
        "search", "new york", "--offline").stdout


def test_offline_forecast_starts_today_and_is_marked(cli):
    # Coordinates without a place id count days in the nearest place's time zone: Seoul's.
    seoul = zoneinfo.ZoneInfo("Asia/Seoul")
    before = datetime.datetime.now(seoul).date()
    celsius = json.loads(cli.run("forecast", "--latitude", "37.57", "--longitude", "126.98", "--json",
                             "--offline").stdout)
    after = datetime.datetime.now(seoul).date()
    assert celsius["estimate"] is True
    assert celsius["daily"]["time"][0] in {before.isoformat(), after.isoformat()}, celsius["daily"]
    assert len(celsius["daily"]["time"]) == 7
    assert celsius["daily_units"]["temperature_2m_max"] == "°C"
    fahrenheit = json.loads(cli.run("forecast", "--latitude", "37.57", "--longitude", "126.98", "--json",
                                "--unit", "fahrenheit", "--offline").stdout)
    assert fahrenheit["daily_units"]["temperature_2m_max"] == "°F"
    for c, f in zip(celsius["daily"]["temperature_2m_max"], fahrenheit["daily"]["temperature_2m_max"]):
        assert abs(c * 9 / 5 + 32 - f) < 0.06, (c, f)
    text = cli.run("forecast", "--latitude", "37.57", "--longitude", "126.98", "--offline").stdout
    assert text.splitlines()[-1] == "offline estimate: a climate model, not a forecast", text


def test_options_may_come_before_the_subcommand(cli):
    before = cli.run("--offline", "search", "seo", "--json").stdout
    assert before == cli.run("search", "seo", "--json", "--offline").stdout
    assert json.loads(before)["results"], before


def test_offline_facts_are_computed(cli):
    fact = json.loads(cli.run("fact", "28", "--json", "--offline").stdout)
    assert fact["number"] == 28 and "28" in fact["fact"], fact
    assert "good number" not in fact["fact"], fact


def test_search_json(cli, upstream):
    output = json.loads(cli.run("search", "London", "--json", *upstream_flags(upstream)).stdout)
    first = output["results"][0]
    assert first["id"] == 2643743
    assert first["name"] == "London"
    assert first["country"] == "United Kingdom"
    assert first["admin1"] == "England"
    assert abs(first["latitude"] - 51.50853) < 1e-9
    assert abs(first["longitude"] - -0.12574) < 1e-9
    assert len(output["results"]) > 1


def test_a_query_longer_than_any_place_is_refused_without_echoing_it(cli):
    result = cli.run("search", "x" * 100_000, expect_status=64)
    assert "The query is too long: 100000 characters, at most 200." in result.stderr, result.stderr[:500]
    assert len(result.stderr) < 1_000, len(result.stderr)


def test_search_without_matches(cli, upstream):
    result = cli.run("search", "Zzyzx", *upstream_flags(upstream))
    assert result.stdout.strip() == 'No places found for "Zzyzx".', result.stdout
    assert json.loads(cli.run("search", "Zzyzx", "--json", *upstream_flags(upstream)).stdout) == {"results": []}


def test_forecast_json(cli, upstream):
    output = json.loads(cli.run("forecast", "--latitude", "52.62", "--longitude", "1.3", "--json",
                            *upstream_flags(upstream)).stdout)
    expected = forecast_fixture()
    assert output["daily"]["time"] == expected["daily"]["time"]
    assert output["daily"]["temperature_2m_max"] == expected["daily"]["temperature_2m_max"]
    assert output["daily"]["temperature_2m_min"] == expected["daily"]["temperature_2m_min"]
    assert output["daily_units"]["temperature_2m_max"] == "°C"


def test_forecast_text_has_no_escape_codes(cli, upstream):
    output = cli.run("forecast", "--latitude", "52.62", "--longitude", "1.3", *upstream_flags(upstream)).stdout
    assert "\x1b" not in output
    assert output.splitlines()[0].startswith("Today"), output


def test_fact_json(cli, upstream):
    assert json.loads(cli.run("fact", "42", "--json", *upstream_flags(upstream)).stdout) == {
        "number": 42, "fact": "42 is the answer."}


def test_random_json(cli, upstream):
    output = json.loads(cli.run("random", "--min", "1", "--max", "10", "--json", "--random-source", "http",
                            *upstream_flags(upstream)).stdout)
    assert output == {"min": 1, "max": 10, "value": 7}
    system = json.loads(cli.run("random", "--min", "5", "--max", "5", "--json").stdout)
    assert system == {"min": 5, "max": 5, "value": 5}


def test_failures_exit_non_zero_with_a_message(cli):
    unreachable = cli.run("fact", "1", "--fact-url", "http://127.0.0.1:9", expect_status=1)
    assert unreachable.stderr.startswith("app-cli: Number trivia"), unreachable.stderr
    assert "cannot reach" in unreachable.stderr, unreachable.stderr
    bad_range = cli.run("random", "--min", "9", "--max", "1", expect_status=64)
    assert "--min must not be greater than --max" in bad_range.stderr
    # A bad flag or variable is a usage error (64), named as the user typed it, with the same
    # message app-server gives.
    bad_url = cli.run("search", "x", "--geocoding-url", "not a url", expect_status=64)
    assert '--geocoding-url="not a url" is not valid' in bad_url.stderr, bad_url.stderr
    bad_variable = subprocess.run([cli.path, "fact", "1"], capture_output=True, text=True, timeout=30,
                                  env={**os.environ, "HTTP_TIMEOUT_SECONDS": "soon"})
    assert bad_variable.returncode == 64, (bad_variable.returncode, bad_variable.stderr)
    assert bad_variable.stderr.startswith('app-cli: HTTP_TIMEOUT_SECONDS="soon" is not valid'), \
        bad_variable.stderr
    version = cli.run("--version")
    assert version.stdout.strip(), version.stdout


def test_what_is_wrong_is_said_as_it_is(cli):
    # A service that cannot be reached suggests the offline data.
    unreachable = cli.run("search", "seo", "--geocoding-url", "http://127.0.0.1:9", expect_status=1)
    assert "cannot reach 127.0.0.1:9" in unreachable.stderr, unreachable.stderr
    assert "Without a network, add --offline" in unreachable.stderr, unreachable.stderr
    # A number too large is out of range, not "not a whole number"; a word is not a number.
    large = cli.run("fact", "99999999999999999999", expect_status=64)
    assert "'99999999999999999999' is out of range" in large.stderr, large.stderr
    assert "is not a whole number" in cli.run("fact", "many", expect_status=64).stderr
    # A bad variable is refused the same way with --offline as without.
    for arguments in (["search", "seo", "--offline"], ["--offline"]):
        result = subprocess.run([cli.path, *arguments], capture_output=True, text=True, timeout=30,
                                env={**os.environ, "HTTP_TIMEOUT_SECONDS": "soon"},
                                stdin=subprocess.DEVNULL)
        assert result.returncode == 64, (arguments, result.returncode, result.stderr)
        assert 'HTTP_TIMEOUT_SECONDS="soon" is not valid' in result.stderr, result.stderr
    # The failure rate of the favorites demonstration: a flag as on the servers, and a bad one
    # (flag or variable) refused without a terminal too.
    for arguments, environment in ((["--offline", "--favorite-failure-rate", "2"], {}),
                                   (["--offline"], {"FAVORITE_FAILURE_RATE": "often"})):
        result = subprocess.run([cli.path, *arguments], capture_output=True, text=True, timeout=30,
                                env={**os.environ, **environment}, stdin=subprocess.DEVNULL)
        assert result.returncode == 64, (arguments, result.returncode, result.stderr)
        assert "FAVORITE_FAILURE_RATE=" in result.stderr or "--favorite-failure-rate=" in result.stderr, \
            result.stderr
    accepted = subprocess.run([cli.path, "--offline", "--favorite-failure-rate", "0.5"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert accepted.returncode == 1, (accepted.returncode, accepted.stderr)
    assert "interactive mode needs a terminal" in accepted.stderr, accepted.stderr


def test_help_for_every_command(cli):
    for command in ([], ["search"], ["forecast"], ["fact"], ["random"], ["interactive"]):
        output = cli.run(*command, "--help").stdout
        assert output.startswith("OVERVIEW:"), output


def test_help_names_what_each_command_takes(cli):
    top = cli.run("--help").stdout
    assert "app-cli --offline" in top, top
    interactive = cli.run("help", "interactive").stdout
    assert "composable-app/app.sqlite" in interactive and "<executable>" not in interactive, interactive
    assert "--database-url" in interactive, interactive
    for command in ("search", "forecast", "fact", "random"):
        output = cli.run(command, "--help").stdout
        assert "--database" not in output, output  # one-shot commands keep nothing
        assert "--offline" in output, output
    assert cli.run("fact", "--help").stdout.splitlines()[2].strip() == "USAGE: app-cli fact <number> [--json] [<options>]"


def test_negative_numbers_are_values(cli):
    # Places west or south of 0°, and numbers below zero, are written as they are read.
    forecast = json.loads(cli.run("forecast", "--latitude", "-33.87", "--longitude", "-74.0", "--json",
                              "--offline").stdout)
    assert len(forecast["daily"]["time"]) == 7, forecast
    # The sign is kept: the other side of the equator and of Greenwich gets another estimate.
    mirrored = json.loads(cli.run("forecast", "--latitude", "33.87", "--longitude", "74.0", "--json",
                              "--offline").stdout)
    assert forecast["daily"]["temperature_2m_max"] != mirrored["daily"]["temperature_2m_max"], forecast
    assert json.loads(cli.run("random", "--min", "-3", "--max", "-3", "--json").stdout) == {
        "min": -3, "max": -3, "value": -3}
    for arguments in (["fact", "-5", "--json"], ["fact", "--json", "-5"]):
        fact = json.loads(cli.run(*arguments, "--offline").stdout)
        assert fact["number"] == -5 and "-5" in fact["fact"], fact
    assert "Unknown option '-x'" in cli.run("fact", "-x", expect_status=64).stderr
    assert "Unknown option '--jsn'" in cli.run("fact", "5", "--jsn", expect_status=64).stderr
    assert "Missing expected argument '<number>'" in cli.run("fact", expect_status=64).stderr
    assert "Give one number, not 2: 1 2" in cli.run("fact", "1", "2", expect_status=64).stderr
    assert "'five' is not a whole number" in cli.run("fact", "five", expect_status=64).stderr
    out_of_range = cli.run("forecast", "--latitude", "-91", "--longitude", "0", expect_status=64)
    assert "--latitude must be between -90 and 90" in out_of_range.stderr, out_of_range.stderr


def test_interactive_without_a_terminal_says_only_that(cli):
    # Without a terminal nothing is kept, so nothing may reach for the kept data: the one message
    # on stderr is what to do instead.
    result = subprocess.run([cli.path, "--offline"], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1, result
    assert result.stderr == ("app-cli: interactive mode needs a terminal; for scripts use a "
                             "subcommand (see --help)\n"), result.stderr
    assert "Counter" in result.stdout, result.stdout


def run_server(binaries, *arguments):
    return subprocess.run([binaries.app_server, *arguments], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_a_connection_while_the_server_starts_is_answered_or_refused_at_once(binaries):
    """A health check that connects while app-server starts must be refused at once (and try
    again) or answered, never left hanging: the server once checked its address with a socket
    that listened for a moment, and a connection queued on it waited 5 s for nothing (2 of 10
    starts on a busy machine). Twenty starts with two busy processes loading the CPU and a client
    connecting every millisecond from the start; a request that gets no answer in 3 s fails."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for start in range(20):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            server = subprocess.Popen(
                [binaries.app_server, "--port", str(port), "--database", ":memory:", "--log-level",
                 "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 60
                while True:
                    assert time.monotonic() < deadline, "app-server did not answer within 60 s"
                    assert server.poll() is None, f"app-server exited with {server.returncode}"
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
                    try:
                        connection.request("GET", "/healthz")
                        status = connection.getresponse().status
                        break
                    except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError,
                            http.client.RemoteDisconnected):
                        time.sleep(0.001)
                    except TimeoutError as error:
                        raise AssertionError(
                            f"start {start + 1}: a connection made while the server started got "
                            "no answer in 3 s") from error
                    finally:
                        connection.close()
                assert status == 200, status
            finally:
                server.terminate()
                server.wait(timeout=10)
    finally:
        for process in busy:
            process.kill()
            process.wait()


def test_server_help(binaries):
    for flag in ("--help", "-h"):
        result = run_server(binaries, flag)
        assert result.returncode == 0, result
        assert result.stdout.startswith("OVERVIEW: Serves the Composable App"), result.stdout
        assert "--offline" in result.stdout and "composable-app/app-server.sqlite" in result.stdout
        assert result.stderr == "", result.stderr


def test_server_names_an_address_in_use(binaries):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_server(binaries, "--port", str(port), "--offline", "--database", ":memory:")
    assert result.returncode == 1, result
    assert (f"app-server: cannot listen on 127.0.0.1:{port}: Address already in use. Choose another "
            "address or port (--host, --port).") in result.stderr, result.stderr
    assert "Shutting down" not in result.stderr + result.stdout, result


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
