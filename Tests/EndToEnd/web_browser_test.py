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
import pkgutil
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
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
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
    c.click("#tab-settings")
    c.wait(lambda: c.displayed("#setting-displayName"), "settings shown")
    c.type("#setting-displayName", name)
    c.wait(lambda: c.text("#header") == f"Hello, {name}!", f"header greets {name}")
    c.click("#tab-episodes")
    heart = "#episode-list .episode .heart"
    c.wait(lambda: c.displayed(heart, episode), "episodes shown")
    c.click(heart, episode)
    c.wait(lambda: c.attribute(heart, "aria-pressed", episode) == "true", "favorited")
    c.wait(lambda: page_state(c.driver)["episodes"][episode]["isFavorite"] is True, "acknowledged")


# Selenium's own "is displayed" atom (what WebElement.is_displayed runs), so that `displayed`
# and the empty text of a hidden element mean exactly what they mean to Selenium.
IS_DISPLAYED_JS = pkgutil.get_data("selenium.webdriver.remote", "isDisplayed.js").decode("utf8")

# Reads the elements that match a CSS selector, all in one script: `what` is "count", "text",
# "attribute" (named `name`), "displayed" or "selected"; `index` null reads every match (a list),
# otherwise the match at `index`, or null when there is none.
READ_JS = """
const isDisplayed = %s;
const [css, index, what, name] = arguments;
const all = Array.from(document.querySelectorAll(css));
if (what === "count") return all.length;
const read = (element) => {
  switch (what) {
    case "text": {
      if (!isDisplayed(element)) return "";
      const text = element.innerText ?? element.textContent ?? "";
      return text.replace(/[\\u00a0\\t]/g, " ").trim();
    }
    case "attribute": return element.getAttribute(name);
    case "displayed": return !!isDisplayed(element);
    case "selected":
      if (element.tagName === "OPTION") return element.selected;
      return (element.type === "checkbox" || element.type === "radio") && element.checked;
  }
  throw new Error("unknown read: " + what);
};
if (index === null) return all.map(read);
return index < all.length ? read(all[index]) : null;
""" % IS_DISPLAYED_JS


class Checks:
    """Runs the checks, and reads and drives the page for them.

    The page re-renders its elements (a list's rows are replaced, a table is redrawn), so a
    Selenium WebElement found a moment ago may be gone by the time it is read, and reading it
    raises StaleElementReferenceException at random. So no check holds a WebElement:

    - Every read of the page (text, texts, attribute, attributes, displayed, selected, count) is
      ONE `execute_script` call that finds the elements by CSS selector and returns plain values.
      A script runs to its end before the page's own scripts run again, so a read is atomic with
      respect to the page's rendering: it sees the page before a re-render or after it, never a
      half, and it cannot go stale. An element that is absent reads as None (count: 0; texts and
      attributes: []); none of them raises because the page re-rendered.
    - A text is the rendered text, `innerText` trimmed, and "" for an element that is not
      displayed: what Selenium's `.text` gives. As in Selenium's text, a no-break space reads as a
      space, and so does the tab `innerText` puts between a table row's cells. "Displayed" is
      Selenium's own is-displayed atom, the one WebElement.is_displayed runs.
    - The actions (click, type, select) find the element again on every attempt and retry on
      StaleElementReferenceException until TIMEOUT: an action is not a read, and doing it on the
      element as it is after the re-render is what a visitor does. An element that is absent
      fails the action at once, as Selenium's find would.
    """

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

    # Reads: one script each, atomic with respect to the page's rendering (see the class).

    def _read(self, what, css, index, name=None):
        return self.driver.execute_script(READ_JS, css, index, what, name)

    def count(self, css):
        """How many elements match `css` (0 when none)."""
        return self._read("count", css, None)

    def text(self, css, index=0):
        """The rendered text of the index-th match ("" when hidden), or None when there is none."""
        return self._read("text", css, index)

    def texts(self, css):
        """The rendered texts of every match, in document order ([] when none)."""
        return self._read("text", css, None)

    def attribute(self, css, name, index=0):
        """The index-th match's attribute `name`, or None when there is no such element or attribute."""
        return self._read("attribute", css, index, name)

    def attributes(self, css, name):
        """Attribute `name` of every match, in document order ([] when none)."""
        return self._read("attribute", css, None, name)

    def displayed(self, css, index=0):
        """Whether the index-th match is displayed (True or False), or None when there is none.

        A check that something is hidden tests `is False`, so that an absent element does not
        pass for a hidden one."""
        return self._read("displayed", css, index)

    def selected(self, css, index=0):
        """Whether the index-th match (a checkbox, radio button or option) is checked or selected,
        or None when there is none."""
        return self._read("selected", css, index)

    # Actions: the element is found again on every attempt (see the class).

    def _act(self, css, index, action):
        deadline = time.monotonic() + TIMEOUT
        while True:
            elements = self.driver.find_elements(By.CSS_SELECTOR, css)
            if index >= len(elements):
                raise NoSuchElementException(f"no element {index} of {css!r} ({len(elements)} found)")
            try:
                return action(elements[index])
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def click(self, css, index=0):
        """Clicks the index-th match of `css`."""
        self._act(css, index, lambda element: element.click())

    def type(self, css, keys, index=0):
        """Types `keys` into the index-th match of `css`."""
        self._act(css, index, lambda element: element.send_keys(keys))

    def select(self, css, value, index=0):
        """Chooses the option whose value is `value` in the index-th <select> matching `css`."""
        self._act(css, index, lambda element: Select(element).select_by_value(value))


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
            c.wait(lambda: c.count("#counter-list .counter") == 1, "one counter")
            c.wait(lambda: c.text("#connection") == "live", "event stream open")

        def counter_increments():
            c.click('#counter-list .counter [data-do="counter.increment"]')
            c.click('#counter-list .counter [data-do="counter.increment"]')
            c.wait(lambda: c.text("#counter-list .counter .count") == "2", "count 2")
            c.click('#counter-list .counter [data-do="counter.decrement"]')
            c.wait(lambda: c.text("#counter-list .counter .count") == "1", "count 1")

        def counter_fact():
            c.click('#counter-list .counter [data-do="counter.fact"]')
            c.wait(lambda: c.text("#counter-list .counter .fact") == "1 is the number of the fixture server.",
                   "fact shown")

        def counters_added_and_removed():
            c.click("#add-counter")
            c.wait(lambda: c.count("#counter-list .counter") == 2, "two counters")
            c.click('#counter-list .counter [data-do="counter.remove"]', 1)
            c.wait(lambda: c.displayed("#removal-confirmation"), "removal asks first")
            assert (title := c.text("#removal-title")) == "Remove Counter 2?", title
            c.click("#removal-confirm")
            c.wait(lambda: c.count("#counter-list .counter") == 1, "one counter again")

        def timer_ticks_are_pushed():
            c.click('#counter-list .counter [data-do="counter.timer"]')
            c.wait(lambda: int(c.text("#counter-list .counter .count")) >= 3, "two ticks arrived")
            c.click('#counter-list .counter [data-do="counter.timer"]')
            c.wait(lambda: c.text('#counter-list .counter [data-do="counter.timer"]') == "Start timer",
                   "timer off")

        def search_and_forecast():
            c.click("#tab-search")
            c.wait(lambda: c.displayed("#search-query"), "search tab shown")
            c.type("#search-query", "London")
            c.wait(lambda: c.count("#search-results li button") == 2, "two results")
            assert (first := c.text("#search-results li button")) == "London, England — United Kingdom", first
            c.wait(lambda: c.displayed("#search-spinner") is False, "spinner gone")
            c.click("#search-results li button", 0)
            c.wait(lambda: c.count("#forecast-svg") == 1 and c.displayed("#forecast-svg"), "chart shown")
            assert c.count("#forecast-svg polyline.series-max") == 1
            assert c.count("#forecast-svg polyline.series-min") == 1
            assert c.count("#forecast-svg circle") == 14
            assert c.text("#forecast-title") == "Forecast for London"
            rows = c.texts("#forecast-table tr")
            assert len(rows) == 8, len(rows)
            assert "2026-05-24" in rows[1] and "28.1 °C" in rows[1], rows[1]
            assert c.displayed("#forecast-estimate") is False, "a live forecast is no estimate"

        def settings_change_the_header():
            c.click("#tab-settings")
            c.wait(lambda: c.displayed("#setting-displayName"), "settings tab shown")
            c.type("#setting-displayName", "Blob")
            c.wait(lambda: c.text("#header") == "Hello, Blob!", "header greets Blob")
            c.click("#setting-protectMyPosts")
            c.wait(lambda: c.selected("#setting-protectMyPosts"), "toggle on")

        def reset_asks_first():
            c.click("#reset-settings")
            c.wait(lambda: c.displayed("#reset-confirmation"), "confirmation shown")
            assert (title := c.text("#reset-title")) == "Reset all settings?", title
            c.click("#reset-cancel")
            c.wait(lambda: c.displayed("#reset-confirmation") is False, "cancelled")
            assert c.text("#header") == "Hello, Blob!", "cancelling changes nothing"

        def favorite_succeeds():
            c.click("#tab-episodes")
            heart = "#episode-list .episode .heart"
            c.wait(lambda: c.displayed(heart, 0), "episodes shown")
            c.click(heart, 0)
            c.wait(lambda: c.attribute(heart, "aria-pressed", 0) == "true", "favorited")
            time.sleep(1.5)  # the simulated service answers after 1 s: it must keep the favorite
            assert c.attribute(heart, "aria-pressed", 0) == "true"
            assert c.displayed("#episode-list .episode .alert", 0) is False

        def episode_screen_on_a_stack():
            # Episodes tab is shown (favorite_succeeds ran): open the third episode's screen.
            c.click('#episode-list .episode [data-do="episode.open"]', 2)
            c.wait(lambda: c.displayed("#episode-screen"), "screen pushed")
            assert c.displayed("#episode-list") is False, "the screen covers the list"
            assert (title := c.text("#screen-title")) == "Algebraic Data Types", title
            c.click("#screen-heart")
            c.wait(lambda: c.attribute("#screen-heart", "aria-pressed") == "true", "favorited")
            c.click("#screen-close")
            c.wait(lambda: c.displayed("#episode-screen") is False, "screen closed (dismiss)")
            assert c.attribute("#episode-list .episode .heart", "aria-pressed", 2) == "true", \
                "the row shares the favorite"

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
            c.click("#tab-episodes")
            heart = "#episode-list .episode .heart"
            alert = "#episode-list .episode .alert"
            c.wait(lambda: c.displayed(heart, 1), "episodes shown")
            c.click(heart, 1)
            c.wait(lambda: c.attribute(heart, "aria-pressed", 1) == "true", "optimistic favorite")
            c.wait(lambda: c.displayed(alert, 1), "alert shown")
            assert (text := c.text(alert, 1)).startswith("Favoriting failed."), text
            # Every episode's alert has exactly one button (its OK): the second alert's button.
            c.click(alert + " button", 1)
            c.wait(lambda: c.displayed(alert, 1) is False, "alert dismissed")
            c.wait(lambda: c.attribute(heart, "aria-pressed", 1) == "false", "rolled back")

        def upstream_errors_are_visible():
            c.click("#tab-search")
            c.type("#search-query", "Seoul")
            c.wait(lambda: c.displayed("#search-error"), "error shown")
            assert (error := c.text("#search-error")).startswith("Open-Meteo geocoding: cannot reach"), error

        def offline_search_forecast_today_in_the_chosen_unit():
            driver.get(offline_url)
            c.wait(lambda: c.text("#header") == "Composable App", "offline session")
            c.click("#tab-search")
            c.wait(lambda: c.displayed("#search-query"), "search tab shown")
            c.type("#search-query", "seo")
            c.wait(lambda: c.count("#search-results li button") > 1, "results")
            c.wait(lambda: c.text("#search-results li button") == "Seoul — South Korea", "Seoul listed first")
            seoul = lambda: datetime.datetime.now(zoneinfo.ZoneInfo("Asia/Seoul")).date().isoformat()
            before = seoul()
            c.click("#search-results li button", 0)
            c.wait(lambda: c.count("#forecast-table tr") == 8, "seven days")
            after = seoul()
            assert c.displayed("#forecast-estimate")
            assert c.text("#forecast-estimate") == "offline estimate"
            rows = c.texts("#forecast-table tr")
            assert rows[1].split()[0] in {before, after}, (rows[1], before, after)
            assert all("°C" in row for row in rows[1:]), rows

            c.click("#tab-settings")
            c.wait(lambda: c.displayed("#setting-temperatureUnit"), "settings shown")
            c.select("#setting-temperatureUnit", "fahrenheit")
            c.click("#tab-search")
            c.wait(lambda: len(rows := c.texts("#forecast-table tr")) == 8
                   and all("°F" in row for row in rows[1:]), "forecast in °F")
            assert c.displayed("#forecast-estimate")

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
            heart = "#episode-list .episode .heart"
            first.terminate()
            first.wait(timeout=10)
            processes.remove(first)

            second, second_url = launch(["--offline", "--database", database])
            processes.append(second)
            driver.get(second_url)
            c.wait(lambda: c.text("#header") == "Hello, Grace!", "the name is back")
            c.click("#tab-episodes")
            c.wait(lambda: c.attribute(heart, "aria-pressed", 3) == "true", "the favorite is back")
            assert c.attributes(heart, "aria-pressed") == ["false", "false", "false", "true", "false", "false"]

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
            increment = '#counter-list .counter [data-do="counter.increment"]'
            counts = lambda: c.texts("#counter-list .counter .count")
            for expected in ("1", "2", "3"):
                c.click(increment, 0)
                c.wait(lambda: (counts() or [None])[0] == expected, f"count {expected}")
            c.click("#add-counter")
            c.wait(lambda: len(counts()) == 2, "two counters")
            c.click('#counter-list .counter [data-do="counter.timer"]', 1)
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
            c.click(increment, 0)
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
