#!/usr/bin/env python3
"""End-to-end test of app-server in a real browser (headless Chromium driven by Selenium).

It starts the already-built binary (.build/debug/app-server, built by `swift build --build-tests`
in Tools/test-all; `swift build --product app-server` runs only if it is missing; set
APP_SERVER_BINARY to use another build) on free ports, with every upstream base URL pointed at a
tiny fixture HTTP server on 127.0.0.1 that serves the Open-Meteo fixtures of
Tests/WebFrontendTests/Fixtures and a number-trivia text. Then it drives the page like a visitor
and checks what the page shows.

Two servers run: one whose simulated favorites service always succeeds, and one whose favorites
always fail and whose geocoding service is unreachable (for the alert and the visible errors).

Exit status 0 when every check passes; the last line is "N passed, M failed".
"""

import datetime
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zoneinfo
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "WebFrontendTests", "Fixtures")
TIMEOUT = 20  # seconds a page condition may take before the check fails


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


class Upstream(http.server.BaseHTTPRequestHandler):
    """Open-Meteo geocoding and forecast, and number trivia, from fixtures."""

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/v1/search":
            name = (query.get("name") or [""])[0].lower()
            body = fixture({"london": "geocoding-london.json",
                            "berlin": "geocoding-berlin-single.json"}.get(name, "geocoding-no-match.json"))
            self.reply(200, "application/json", body)
        elif url.path == "/v1/forecast":
            self.reply(200, "application/json", fixture("forecast-equator-7d.json"))
        elif re.fullmatch(r"/-?\d+/trivia", url.path):
            number = url.path.split("/")[1]
            self.reply(200, "text/plain", f"{number} is the number of the fixture server.".encode())
        else:
            self.reply(404, "text/plain", b"not found")

    def reply(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def binary():
    path = os.environ.get("APP_SERVER_BINARY") or os.path.join(ROOT, ".build", "debug", "app-server")
    if not os.path.exists(path):
        print(f"{path} is missing: swift build --product app-server", flush=True)
        subprocess.run(["swift", "build", "--product", "app-server"], cwd=ROOT, check=True)
    return path


def start_server(upstream, favorite_failure_rate, geocoding=None):
    return launch(["--geocoding-url", geocoding or upstream,
                   "--forecast-url", upstream,
                   "--fact-url", upstream,
                   "--favorite-failure-rate", str(favorite_failure_rate)])


# Every server of this run keeps its data under one folder of its own, never in the user's data
# directory; each gets its own database file unless one is given.
DATA_HOME = tempfile.mkdtemp(prefix="app-server-e2e-")
os.environ["XDG_DATA_HOME"] = DATA_HOME


def launch(arguments, port=None):
    port = port or free_port()
    if "--database" not in arguments:
        arguments = [*arguments, "--database", tempfile.mktemp(suffix=".sqlite", dir=DATA_HOME)]
    process = subprocess.Popen(
        [binary(), "--host", "127.0.0.1", "--port", str(port), *arguments,
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"app-server exited early:\n{process.stdout.read()}")
        try:
            urllib.request.urlopen(base + "healthz", timeout=1).read()
            return process, base
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("app-server did not start listening")


def make_driver():
    options = Options()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--disable-gpu")
    options.add_argument("--window-size=1200,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.path.exists(candidate):
            options.binary_location = candidate
            break
    driver_path = next((p for p in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
                        if os.path.exists(p)), None)
    service = Service(executable_path=driver_path) if driver_path else Service()
    return webdriver.Chrome(service=service, options=options)


def page_state(driver):
    """The session's state as the API gives it to the page (with the page's cookies)."""
    return json.loads(driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/session/state').then(r => r.text()).then(done);"))["state"]


def name_and_favorite(c, name, episode):
    """Types a display name in Settings and favorites an episode, until both are acknowledged."""
    c.find("#tab-settings").click()
    c.wait(lambda: c.find("#setting-displayName").is_displayed(), "settings shown")
    c.find("#setting-displayName").send_keys(name)
    c.wait(lambda: c.text("#header") == f"Hello, {name}!", f"header greets {name}")
    c.find("#tab-episodes").click()
    heart = lambda: c.find_all("#episode-list .episode .heart")[episode]
    c.wait(lambda: heart().is_displayed(), "episodes shown")
    heart().click()
    c.wait(lambda: heart().get_attribute("aria-pressed") == "true", "favorited")
    c.wait(lambda: page_state(c.driver)["episodes"][episode]["isFavorite"] is True, "acknowledged")


class Checks:
    def __init__(self, driver):
        self.driver = driver
        self.passed = 0
        self.failed = 0

    def run(self, name, body):
        try:
            body()
            self.passed += 1
            print(f"PASS {name}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, then the next check runs
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=2)

    def wait(self, condition, message):
        WebDriverWait(self.driver, TIMEOUT, poll_frequency=0.05).until(lambda d: condition(), message)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def texts(self, css):
        """The texts of every match, or None when the page re-rendered while reading them."""
        try:
            return [element.text for element in self.find_all(css)]
        except StaleElementReferenceException:
            return None

    def text(self, css):
        elements = self.find_all(css)
        return elements[0].text if elements else None


def main():
    upstream_port = free_port()
    upstream_server = http.server.ThreadingHTTPServer(("127.0.0.1", upstream_port), Upstream)
    threading.Thread(target=upstream_server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{upstream_port}"
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there

    processes = []
    driver = None
    checks = None
    try:
        happy, happy_url = start_server(upstream, 0)
        processes.append(happy)
        failing, failing_url = start_server(upstream, 1, geocoding=closed)
        processes.append(failing)
        offline, offline_url = launch(["--offline"])
        processes.append(offline)
        driver = make_driver()
        checks = Checks(driver)
        c = checks

        def page_loads():
            driver.get(happy_url)
            c.wait(lambda: c.text("#header") == "Composable App", "header")
            c.wait(lambda: len(c.find_all("#counter-list .counter")) == 1, "one counter")
            c.wait(lambda: c.text("#connection") == "live", "event stream open")

        def counter_increments():
            c.find('#counter-list .counter [data-do="counter.increment"]').click()
            c.find('#counter-list .counter [data-do="counter.increment"]').click()
            c.wait(lambda: c.text("#counter-list .counter .count") == "2", "count 2")
            c.find('#counter-list .counter [data-do="counter.decrement"]').click()
            c.wait(lambda: c.text("#counter-list .counter .count") == "1", "count 1")

        def counter_fact():
            c.find('#counter-list .counter [data-do="counter.fact"]').click()
            c.wait(lambda: c.text("#counter-list .counter .fact") == "1 is the number of the fixture server.",
                   "fact shown")

        def counters_added_and_removed():
            c.find("#add-counter").click()
            c.wait(lambda: len(c.find_all("#counter-list .counter")) == 2, "two counters")
            c.find_all('#counter-list .counter [data-do="counter.remove"]')[1].click()
            c.wait(lambda: c.find("#removal-confirmation").is_displayed(), "removal asks first")
            assert c.text("#removal-title") == "Remove Counter 2?", c.text("#removal-title")
            c.find("#removal-confirm").click()
            c.wait(lambda: len(c.find_all("#counter-list .counter")) == 1, "one counter again")

        def timer_ticks_are_pushed():
            c.find('#counter-list .counter [data-do="counter.timer"]').click()
            c.wait(lambda: int(c.text("#counter-list .counter .count")) >= 3, "two ticks arrived")
            c.find('#counter-list .counter [data-do="counter.timer"]').click()
            c.wait(lambda: c.text('#counter-list .counter [data-do="counter.timer"]') == "Start timer",
                   "timer off")

        def search_and_forecast():
            c.find("#tab-search").click()
            c.wait(lambda: c.find("#search-query").is_displayed(), "search tab shown")
            c.find("#search-query").send_keys("London")
            c.wait(lambda: len(c.find_all("#search-results li button")) == 2, "two results")
            assert c.find_all("#search-results li button")[0].text == "London, England — United Kingdom", \
                c.find_all("#search-results li button")[0].text
            c.wait(lambda: not c.find("#search-spinner").is_displayed(), "spinner gone")
            c.find_all("#search-results li button")[0].click()
            c.wait(lambda: len(c.find_all("#forecast-svg")) == 1 and c.find("#forecast-svg").is_displayed(),
                   "chart shown")
            assert len(c.find_all("#forecast-svg polyline.series-max")) == 1
            assert len(c.find_all("#forecast-svg polyline.series-min")) == 1
            assert len(c.find_all("#forecast-svg circle")) == 14
            assert c.text("#forecast-title") == "Forecast for London"
            rows = c.find_all("#forecast-table tr")
            assert len(rows) == 8, len(rows)
            assert "2026-05-24" in rows[1].text and "28.1 °C" in rows[1].text, rows[1].text
            assert not c.find("#forecast-estimate").is_displayed(), "a live forecast is no estimate"

        def settings_change_the_header():
            c.find("#tab-settings").click()
            c.wait(lambda: c.find("#setting-displayName").is_displayed(), "settings tab shown")
            c.find("#setting-displayName").send_keys("Blob")
            c.wait(lambda: c.text("#header") == "Hello, Blob!", "header greets Blob")
            c.find("#setting-protectMyPosts").click()
            c.wait(lambda: c.find("#setting-protectMyPosts").is_selected(), "toggle on")

        def reset_asks_first():
            c.find("#reset-settings").click()
            c.wait(lambda: c.find("#reset-confirmation").is_displayed(), "confirmation shown")
            assert c.text("#reset-title") == "Reset all settings?", c.text("#reset-title")
            c.find("#reset-cancel").click()
            c.wait(lambda: not c.find("#reset-confirmation").is_displayed(), "cancelled")
            assert c.text("#header") == "Hello, Blob!", "cancelling changes nothing"

        def favorite_succeeds():
            c.find("#tab-episodes").click()
            heart = lambda: c.find_all("#episode-list .episode .heart")[0]
            c.wait(lambda: heart().is_displayed(), "episodes shown")
            heart().click()
            c.wait(lambda: heart().get_attribute("aria-pressed") == "true", "favorited")
            time.sleep(1.5)  # the simulated service answers after 1 s: it must keep the favorite
            assert heart().get_attribute("aria-pressed") == "true"
            assert not c.find_all("#episode-list .episode .alert")[0].is_displayed()

        def episode_screen_on_a_stack():
            # Episodes tab is shown (favorite_succeeds ran): open the third episode's screen.
            c.find_all('#episode-list .episode [data-do="episode.open"]')[2].click()
            c.wait(lambda: c.find("#episode-screen").is_displayed(), "screen pushed")
            assert not c.find("#episode-list").is_displayed(), "the screen covers the list"
            assert c.text("#screen-title") == "Algebraic Data Types", c.text("#screen-title")
            c.find("#screen-heart").click()
            c.wait(lambda: c.find("#screen-heart").get_attribute("aria-pressed") == "true", "favorited")
            c.find("#screen-close").click()
            c.wait(lambda: not c.find("#episode-screen").is_displayed(), "screen closed (dismiss)")
            heart = c.find_all("#episode-list .episode .heart")[2]
            assert heart.get_attribute("aria-pressed") == "true", "the row shares the favorite"

        def session_survives_a_reload():
            # The session id is in an HttpOnly cookie: a reload resumes the same session, and
            # no script on the page can read the id.
            driver.refresh()
            c.wait(lambda: c.text("#header") == "Hello, Blob!", "same session after a reload")
            assert driver.execute_script("return document.cookie") == "", "cookie readable by JS"
            state = json.loads(driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch('/api/session/state').then(r => r.json())"
                ".then(b => done(JSON.stringify(b.state)));"))
            assert state["header"] == "Hello, Blob!", state["header"]
            assert state["episodes"][0]["isFavorite"] is True
            violations = [e["message"] for e in driver.get_log("browser")
                          if "Content Security Policy" in e["message"]]
            assert not violations, violations

        def failed_favorite_alert_and_rollback():
            driver.get(failing_url)
            c.wait(lambda: c.text("#header") == "Composable App", "fresh session")
            c.find("#tab-episodes").click()
            heart = lambda: c.find_all("#episode-list .episode .heart")[1]
            alert = lambda: c.find_all("#episode-list .episode .alert")[1]
            c.wait(lambda: heart().is_displayed(), "episodes shown")
            heart().click()
            c.wait(lambda: heart().get_attribute("aria-pressed") == "true", "optimistic favorite")
            c.wait(lambda: alert().is_displayed(), "alert shown")
            assert alert().text.startswith("Favoriting failed."), alert().text
            alert().find_element(By.CSS_SELECTOR, "button").click()
            c.wait(lambda: not alert().is_displayed(), "alert dismissed")
            c.wait(lambda: heart().get_attribute("aria-pressed") == "false", "rolled back")

        def upstream_errors_are_visible():
            c.find("#tab-search").click()
            c.find("#search-query").send_keys("Seoul")
            c.wait(lambda: c.find("#search-error").is_displayed(), "error shown")
            assert c.text("#search-error").startswith("Open-Meteo geocoding: cannot reach"), c.text("#search-error")

        def offline_search_forecast_today_in_the_chosen_unit():
            driver.get(offline_url)
            c.wait(lambda: c.text("#header") == "Composable App", "offline session")
            c.find("#tab-search").click()
            c.wait(lambda: c.find("#search-query").is_displayed(), "search tab shown")
            c.find("#search-query").send_keys("seo")
            c.wait(lambda: len(c.texts("#search-results li button") or []) > 1, "results")
            c.wait(lambda: (c.texts("#search-results li button") or [""])[0] == "Seoul — South Korea",
                   "Seoul listed first")
            seoul = lambda: datetime.datetime.now(zoneinfo.ZoneInfo("Asia/Seoul")).date().isoformat()
            before = seoul()
            c.find_all("#search-results li button")[0].click()
            c.wait(lambda: len(c.texts("#forecast-table tr") or []) == 8, "seven days")
            after = seoul()
            assert c.find("#forecast-estimate").is_displayed()
            assert c.text("#forecast-estimate") == "offline estimate"
            rows = c.texts("#forecast-table tr")
            assert rows[1].split()[0] in {before, after}, (rows[1], before, after)
            assert all("°C" in row for row in rows[1:]), rows

            c.find("#tab-settings").click()
            c.wait(lambda: c.find("#setting-temperatureUnit").is_displayed(), "settings shown")
            Select(c.find("#setting-temperatureUnit")).select_by_value("fahrenheit")
            c.find("#tab-search").click()
            c.wait(lambda: (rows := c.texts("#forecast-table tr")) is not None and len(rows) == 8
                   and all("°F" in row for row in rows[1:]), "forecast in °F")
            assert c.find("#forecast-estimate").is_displayed()

        def bad_configuration_stops_the_server():
            cases = {
                "LOG_LEVEL": ("garbage", 'LOG_LEVEL="garbage" is not valid: expected a log level'),
                "APP_SERVER_PORT": ("70000", 'APP_SERVER_PORT="70000" is not valid: expected a port in 0...65535'),
                "APP_SERVER_MAX_SESSIONS": ("0", 'APP_SERVER_MAX_SESSIONS="0" is not valid: expected a whole number, at least 1'),
                "APP_SERVER_IDLE_TIMEOUT_SECONDS": ("-1", "expected a positive number of seconds"),
                "FAVORITE_FAILURE_RATE": ("2", 'FAVORITE_FAILURE_RATE="2" is not valid: expected a number between 0 and 1'),
                "HTTP_TIMEOUT_SECONDS": ("soon", 'HTTP_TIMEOUT_SECONDS="soon" is not valid'),
            }
            for variable, (value, message) in cases.items():
                # A flag wins over its variable: the port case gives no --port.
                arguments = [] if variable == "APP_SERVER_PORT" else ["--port", "0"]
                result = subprocess.run([binary(), *arguments], capture_output=True, text=True,
                                        timeout=30, env={**os.environ, variable: value})
                assert result.returncode == 64, (variable, result.returncode, result.stderr)
                assert message in result.stderr, (variable, result.stderr)
                assert "listening" not in result.stdout, (variable, result.stdout)
            for flags, message in [
                (["--port", "70000"], '--port="70000" is not valid: expected a port in 0...65535'),
                (["--timeout", "soon"], '--timeout="soon" is not valid'),
            ]:
                flag = subprocess.run([binary(), *flags], capture_output=True, text=True, timeout=30)
                assert flag.returncode == 64 and message in flag.stderr, flag.stderr
            version = subprocess.run([binary(), "--version"], capture_output=True, text=True, timeout=30)
            assert version.returncode == 0 and version.stdout.strip(), (version.returncode, version.stdout)

        def kept_across_a_restart():
            # Favorites and settings belong to the visitor (a long-lived cookie) and live in the
            # database: a new server process on the same file shows them to the same browser.
            database = os.path.join(DATA_HOME, "kept.sqlite")
            first, first_url = launch(["--offline", "--database", database])
            processes.append(first)
            driver.get(first_url)
            c.wait(lambda: c.text("#header") == "Composable App", "a new visitor")
            name_and_favorite(c, "Grace", 3)
            heart = lambda: c.find_all("#episode-list .episode .heart")[3]
            first.terminate()
            first.wait(timeout=10)
            processes.remove(first)

            second, second_url = launch(["--offline", "--database", database])
            processes.append(second)
            driver.get(second_url)
            c.wait(lambda: c.text("#header") == "Hello, Grace!", "the name is back")
            c.find("#tab-episodes").click()
            c.wait(lambda: heart().get_attribute("aria-pressed") == "true", "the favorite is back")
            assert [h.get_attribute("aria-pressed") for h in c.find_all("#episode-list .episode .heart")] \
                == ["false", "false", "false", "true", "false", "false"]

        def the_page_reconnects_to_the_same_state_after_a_crash():
            # The server is killed (SIGKILL: nothing is saved on the way out) and started again on
            # the same port and file. The page is not reloaded: its event stream reconnects, the
            # new process resumes the saved session, and everything acknowledged is there.
            database = os.path.join(DATA_HOME, "crash.sqlite")
            port = free_port()
            first, url = launch(["--offline", "--database", database], port=port)
            processes.append(first)
            driver.get(url)
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            increment = lambda: c.find_all('#counter-list .counter [data-do="counter.increment"]')[0]
            counts = lambda: c.texts("#counter-list .counter .count")
            for expected in ("1", "2", "3"):
                increment().click()
                c.wait(lambda: (counts() or [None])[0] == expected, f"count {expected}")
            c.find("#add-counter").click()
            c.wait(lambda: len(counts() or []) == 2, "two counters")
            c.find_all('#counter-list .counter [data-do="counter.timer"]')[1].click()
            c.wait(lambda: int((counts() or ["0", "0"])[1]) >= 1, "the second counter's timer ticks")
            first.kill()
            first.wait(timeout=10)
            processes.remove(first)

            second, _ = launch(["--offline", "--database", database], port=port)
            processes.append(second)
            c.wait(lambda: c.text("#connection") == "live", "the event stream reconnected")
            assert (counts() or [None])[0] == "3", counts()
            ticked = int(counts()[1])
            c.wait(lambda: int((counts() or ["0", "0"])[1]) > ticked, "the timer runs again")
            increment().click()
            c.wait(lambda: (counts() or [None])[0] == "4", "the session goes on: count 4")

        def a_database_that_cannot_be_opened_stops_the_server():
            blocker = os.path.join(DATA_HOME, "a-file")
            with open(blocker, "w") as file:
                file.write("not a folder")
            result = subprocess.run(
                [binary(), "--port", "0", "--database", os.path.join(blocker, "app.sqlite")],
                capture_output=True, text=True, timeout=30)
            assert result.returncode != 0, (result.returncode, result.stderr)
            assert "could not be opened" in result.stderr and "a-file" in result.stderr, result.stderr

        for name, body in [
            ("page loads with a session and an event stream", page_loads),
            ("counter increments and decrements", counter_increments),
            ("counter fact from the trivia service", counter_fact),
            ("counters are added and removed", counters_added_and_removed),
            ("timer ticks are pushed to the page", timer_ticks_are_pushed),
            ("search shows results and a forecast chart", search_and_forecast),
            ("display name changes the header", settings_change_the_header),
            ("reset asks for confirmation; Cancel keeps the settings", reset_asks_first),
            ("favorite succeeds", favorite_succeeds),
            ("an episode screen is pushed, shares the favorite, and closes itself",
             episode_screen_on_a_stack),
            ("a reload resumes the session from its HttpOnly cookie; no CSP violation",
             session_survives_a_reload),
            ("failed favorite shows an alert; OK rolls back", failed_favorite_alert_and_rollback),
            ("upstream errors are visible", upstream_errors_are_visible),
            ("a bad variable or flag stops the server with a clear message",
             bad_configuration_stops_the_server),
            ("offline: Seoul's forecast starts today, °C then °F, labelled",
             offline_search_forecast_today_in_the_chosen_unit),
            ("favorites and settings are kept across a server restart", kept_across_a_restart),
            ("the page reconnects to the same state after a crash",
             the_page_reconnects_to_the_same_state_after_a_crash),
            ("a database that cannot be opened stops the server with its name",
             a_database_that_cannot_be_opened_stops_the_server),
        ]:
            checks.run(name, body)
    except Exception as error:  # noqa: BLE001 - set-up failures count as a failed check
        print(f"FAIL set-up: {type(error).__name__}: {error}", flush=True)
        traceback.print_exc()
        checks = checks or Checks(None)
        checks.failed += 1
    finally:
        if driver is not None:
            driver.quit()
        for process in processes:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                print("app-server did not stop within 10 s of SIGTERM", flush=True)
                process.kill()
                checks.failed += 1
        upstream_server.shutdown()

    print(f"{checks.passed} passed, {checks.failed} failed", flush=True)
    sys.exit(0 if checks.failed == 0 else 1)


if __name__ == "__main__":
    main()
