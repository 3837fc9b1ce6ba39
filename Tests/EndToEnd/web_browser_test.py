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
import importlib.util
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
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "WebFrontendTests", "Fixtures")
TIMEOUT = 20  # seconds a page condition may take before the check fails
# Where to keep a screenshot of every screen at 1280 and 390 px, for a person to look at.
SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")
ONLY = os.environ.get("BROWSER_CHECKS")  # runs only the checks whose name contains this text


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


def make_driver(profile=None):
    """A headless Chromium; with `profile`, a folder that keeps its cookies when it quits, so
    that a second driver on the same folder is the same browser started again."""
    options = Options()
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
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


def metric(base, name, **labels):
    """The value of one series of the server's /metrics (0 when it is not there yet)."""
    text = urllib.request.urlopen(base + "metrics", timeout=10).read().decode()
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    total = 0.0
    for line in text.splitlines():
        match = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        if not match or match.group(1) != name:
            continue
        if all(f'{key}="{value}"' in (match.group(2) or "") for key, value in labels.items()):
            total += float(match.group(3))
    return total


def axe_script():
    """axe-core's script, from the axe-playwright-python package (only its axe.min.js is used)."""
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec and spec.submodule_search_locations, "axe-playwright-python is not installed"
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf8") as file:
        return file.read()


def serious_accessibility_violations(driver):
    """axe-core's serious and critical violations of WCAG 2.2 A and AA on the page as it is."""
    if not driver.execute_script("return typeof axe !== 'undefined'"):
        driver.execute_script(axe_script())
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}})"
        ".then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))))"
        ".catch((e) => done([{id: 'axe failed', impact: 'critical', help: String(e), nodes: []}]));")
    return [v for v in results if v["impact"] in ("serious", "critical")]


def three_and_a_running_timer(checks):
    """On a fresh page: the first counter to 3, a second counter whose timer runs and has
    ticked. Returns the function that reads the counts."""
    checks.wait(lambda: checks.text("#connection") == "live", "event stream open")
    increment = '#counter-list .counter [data-do="counter.increment"]'
    counts = lambda: checks.texts("#counter-list .counter .count")
    for expected in ("1", "2", "3"):
        checks.click(increment, 0)
        checks.wait(lambda: (counts() or [None])[0] == expected, f"count {expected}")
    checks.click("#add-counter")
    checks.wait(lambda: len(counts()) == 2, "two counters")
    checks.click('#counter-list .counter [data-do="counter.timer"]', 1)
    checks.wait(lambda: int((counts() or ["0", "0"])[1]) >= 1, "the second counter's timer ticks")
    return counts


def forget_cookies(driver):
    """Makes the browser a new visitor: every cookie of every path goes (WebDriver's own delete
    only reaches the cookies the current page can see, not those of /api/session)."""
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})


def path(driver):
    return urllib.parse.urlparse(driver.current_url).path


def active_id(driver):
    return driver.execute_script("return document.activeElement && document.activeElement.id")


def keys(driver, *sequence):
    """Presses keys in the page, as a keyboard does, wherever the focus is."""
    ActionChains(driver).send_keys(*sequence).perform()


def shift_tab(driver):
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


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
            self.describe_page()

    def describe_page(self):
        """What the page showed when a check failed: its address and history, the tab and screens
        it draws, the session's state on the server, and the browser's console. Best effort: a
        page that cannot answer says so."""
        try:
            shown = self.driver.execute_script(
                "return {address: location.pathname, historyLength: history.length,"
                " historyState: history.state,"
                " tab: (document.querySelector('nav [aria-selected=true]') || {}).id,"
                " screenShown: !document.querySelector('#episode-screen')?.hidden,"
                " connection: document.querySelector('#connection')?.textContent,"
                " banner: document.querySelector('#banner.shown #banner-text')?.textContent};")
            print(f"  page: {shown}", flush=True)
            state = page_state(self.driver)
            print(f"  session: selectedTab={state.get('selectedTab')} screens="
                  f"{[screen.get('id') for screen in state.get('episodeScreens') or []]}", flush=True)
            for entry in self.driver.get_log("browser")[-10:]:
                print(f"  console: {entry['level']} {entry['message']}", flush=True)
        except Exception as error:  # noqa: BLE001 - the description must not hide the failure
            print(f"  (the page could not be described: {type(error).__name__}: {error})", flush=True)

    def wait(self, condition, message, timeout=None):
        WebDriverWait(self.driver, timeout or TIMEOUT, poll_frequency=0.05).until(
            lambda d: condition(), message)

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

    def replace_text(self, css, text, index=0):
        """Selects what the index-th match holds and types `text` over it, as a person does (the
        page hears every keystroke)."""
        self._act(css, index, lambda element: element.send_keys(Keys.CONTROL + "a" + Keys.NULL, text))

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
            # Days are named as in the terminal ("Today", then the weekday), dated underneath.
            assert rows[1].startswith("Today") and "28.1 °C" in rows[1], rows[1]
            assert c.attribute("#forecast-table time", "datetime") == "2026-05-24"
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

        def the_list_shows_the_favorites_only():
            favorites = [e["title"] for e in page_state(driver)["episodes"] if e["isFavorite"]]
            assert favorites, "earlier checks favorited some episodes"
            c.click("#episodes-favorites-only")
            c.wait(lambda: c.count("#episode-list .episode") == len(favorites), "favorites only")
            titles = [c.text("#episode-list .episode .title", i) for i in range(len(favorites))]
            assert titles == favorites, (titles, favorites)
            assert c.text("#episodes-filter-count") == f"{len(favorites)} of 6"
            assert c.selected("#episodes-favorites-only")
            driver.refresh()
            c.wait(lambda: c.count("#episode-list .episode") == len(favorites), "kept on reload")
            assert c.selected("#episodes-favorites-only")
            c.click("#episodes-favorites-only")
            c.wait(lambda: c.count("#episode-list .episode") == 6, "every episode again")
            assert c.text("#episodes-filter-count") == ""

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

        def a_favorite_whose_screen_is_left_mid_save_is_not_kept():
            # The newcomer's sequence on the failing server: open an episode, favorite it, and go
            # Back at once. The save goes on without its screen: its failure shows on the list,
            # OK puts the heart back, and a reload shows nothing kept.
            heart = "#episode-list .episode .heart"
            alert = "#episode-list .episode .alert"
            c.click('#episode-list .episode [data-do="episode.open"]', 4)
            c.wait(lambda: c.displayed("#episode-screen"), "screen pushed")
            c.click("#screen-heart")
            c.wait(lambda: c.attribute("#screen-heart", "aria-pressed") == "true", "favorited")
            driver.back()
            c.wait(lambda: c.displayed("#episode-screen") is False, "Back closes the screen")
            assert c.attribute(heart, "aria-pressed", 4) == "true", "the row shows the choice"
            c.wait(lambda: c.displayed(alert, 4), "the failure shows on the list")
            assert (text := c.text(alert, 4)).startswith("Favoriting failed."), text
            c.click(alert + " button", 4)
            c.wait(lambda: c.attribute(heart, "aria-pressed", 4) == "false", "rolled back")
            driver.refresh()
            c.wait(lambda: c.displayed(heart, 4), "reloaded")
            time.sleep(0.5)
            assert c.attribute(heart, "aria-pressed", 4) == "false", "nothing was kept"

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
            assert rows[1].startswith("Today"), rows[1]
            first = c.attribute("#forecast-table time", "datetime")
            assert first in {before, after}, (first, before, after)
            assert all("°C" in row for row in rows[1:]), rows

            c.click("#tab-settings")
            c.wait(lambda: c.displayed("#setting-temperatureUnit"), "settings shown")
            c.select("#setting-temperatureUnit", "fahrenheit")
            c.click("#tab-search")
            c.wait(lambda: len(rows := c.texts("#forecast-table tr")) == 8
                   and all("°F" in row for row in rows[1:]), "forecast in °F")
            assert c.displayed("#forecast-estimate")

        def first_visit_is_quiet():
            # A first visit opens its session with one request: no 404 in the console, nothing
            # counted as refused.
            forget_cookies(driver)
            driver.get_log("browser")
            refused = metric(happy_url, "app_requests_refused_total")
            driver.get(happy_url)
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert not errors, errors
            assert metric(happy_url, "app_requests_refused_total") == refused
            ready = urllib.request.urlopen(happy_url + "readyz", timeout=10)
            assert ready.headers["Content-Type"] == "text/plain; charset=utf-8", ready.headers["Content-Type"]

        def counters_are_named_and_removal_looks_destructive():
            c.click("#tab-counters")
            c.click("#add-counter")
            c.wait(lambda: c.count("#counter-list .counter") == 2, "two counters")
            assert c.texts("#counter-list .counter .counter-name") == ["Counter 1", "Counter 2"]
            assert c.attributes("#counter-list .counter", "aria-label") == ["Counter 1", "Counter 2"]
            c.click('#counter-list .counter [data-do="counter.remove"]', 1)
            c.wait(lambda: c.displayed("#removal-confirmation"), "removal asks first")
            assert "destructive" in c.attribute("#removal-confirm", "class").split()
            assert "destructive" not in c.attribute("#removal-cancel", "class").split()
            c.click("#removal-confirm")
            c.wait(lambda: c.count("#counter-list .counter") == 1, "one counter again")

        def search_says_when_nothing_is_found_and_typing_fast_is_fine():
            c.click("#tab-search")
            assert c.attribute("#search-query", "maxlength") == "200"
            c.replace_text("#search-query", "Zzyzx")
            c.wait(lambda: c.displayed("#search-empty"), "no results said")
            assert c.text("#search-empty") == "No places found."
            # Thirty characters typed as fast as the driver can: a few requests, never a 429.
            sent = metric(happy_url, "app_actions_total", type="search.query")
            c.replace_text("#search-query", "a long name nobody ever typed ")
            c.wait(lambda: c.displayed("#search-empty"), "searched")
            requests = metric(happy_url, "app_actions_total", type="search.query") - sent
            assert requests < 30, requests
            assert "shown" not in (c.attribute("#banner", "class") or ""), c.text("#banner-text")
            c.replace_text("#search-query", "London")
            c.wait(lambda: c.count("#search-results li button") == 2, "two results")
            assert c.displayed("#search-empty") is False

        def chart_has_a_legend_a_unit_and_a_credit():
            c.click("#search-results li button", 0)
            c.wait(lambda: c.displayed("#forecast-svg"), "chart shown")
            assert c.texts("#forecast-svg text.legend") == ["Maximum", "Minimum"]
            assert c.text("#forecast-svg text.unit") == "°C"
            assert c.text("#forecast-credit") == "Weather data by Open-Meteo.com (CC BY 4.0).", c.text("#forecast-credit")
            # The chart takes the card's width.
            widths = driver.execute_script(
                "return [document.querySelector('#forecast-svg').getBoundingClientRect().width,"
                " document.querySelector('#forecast').clientWidth]")
            assert widths[0] > 0.85 * widths[1], widths

        def settings_form_enter_and_disabled_channels():
            c.click("#tab-settings")
            c.wait(lambda: c.displayed("#setting-displayName"), "settings shown")
            driver.get_log("browser")
            c.type("#setting-displayName", Keys.ENTER)
            time.sleep(0.5)
            assert path(driver) == "/settings", driver.current_url
            violations = [e["message"] for e in driver.get_log("browser")
                          if "Content Security Policy" in e["message"] or e["level"] == "SEVERE"]
            assert not violations, violations
            assert c.selected("#setting-enableNotifications") is False
            for channel in ("#setting-sendEmailNotifications", "#setting-sendMobileNotifications"):
                assert c.attribute(channel, "disabled") is not None, f"{channel} is not disabled"
            assert c.displayed("#channels-hint")
            c.click("#setting-enableNotifications")
            c.wait(lambda: c.attribute("#setting-sendEmailNotifications", "disabled") is None, "enabled")
            assert c.displayed("#channels-hint") is False
            c.click("#setting-sendEmailNotifications")
            c.wait(lambda: c.selected("#setting-sendEmailNotifications"), "e-mail on")
            c.click("#setting-enableNotifications")
            c.wait(lambda: c.attribute("#setting-sendEmailNotifications", "disabled") is not None, "disabled again")
            assert c.selected("#setting-sendEmailNotifications") is False

        def back_forward_reload_and_a_shared_link():
            c.click("#tab-episodes")
            c.wait(lambda: path(driver) == "/episodes", "the address is the tab's")
            c.click('#episode-list .episode [data-do="episode.open"]', 1)
            c.wait(lambda: c.displayed("#episode-screen"), "screen pushed")
            episode = page_state(driver)["episodeScreens"][-1]
            address = "/episodes/" + episode["id"].lower()
            c.wait(lambda: path(driver) == address, "the address names the screen")
            driver.back()
            c.wait(lambda: c.displayed("#episode-screen") is False, "Back closes the screen")
            assert path(driver) == "/episodes", driver.current_url
            driver.back()
            c.wait(lambda: c.attribute("#tab-settings", "aria-selected") == "true", "Back goes to the tab before")
            assert path(driver) == "/settings", driver.current_url
            driver.forward()
            c.wait(lambda: c.attribute("#tab-episodes", "aria-selected") == "true", "Forward: the tab")
            driver.forward()
            c.wait(lambda: c.displayed("#episode-screen"), "Forward opens the screen again")
            assert c.text("#screen-title") == episode["title"]
            driver.refresh()
            c.wait(lambda: c.displayed("#episode-screen"), "a reload keeps the screen")
            assert path(driver) == address
            # A link to the screen, opened by someone with no session yet.
            forget_cookies(driver)
            driver.get(happy_url.rstrip("/") + address)
            c.wait(lambda: c.displayed("#episode-screen"), "the shared link opens the screen")
            assert c.text("#screen-title") == episode["title"]
            assert "session" not in driver.current_url.lower()
            c.click("#screen-close")
            c.wait(lambda: path(driver) == "/episodes", "closed")
            # An address that is not the page's is replaced by the screen's own.
            driver.get(happy_url + "episodes/not-an-episode")
            c.wait(lambda: path(driver) == "/episodes", "an unknown address is corrected")

        def keyboard_only_through_every_tab():
            forget_cookies(driver)
            driver.get(happy_url)
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            driver.execute_script("document.activeElement && document.activeElement.blur()")
            keys(driver, Keys.TAB)
            assert active_id(driver) == "tab-counters", active_id(driver)
            keys(driver, Keys.TAB)
            assert active_id(driver) == "add-counter", active_id(driver)
            keys(driver, Keys.ENTER)
            c.wait(lambda: c.count("#counter-list .counter") == 2, "a counter added by keyboard")
            shift_tab(driver)
            assert active_id(driver) == "tab-counters", active_id(driver)
            keys(driver, Keys.ARROW_RIGHT)
            c.wait(lambda: c.attribute("#tab-search", "aria-selected") == "true", "→ selects Search")
            assert active_id(driver) == "tab-search"
            keys(driver, Keys.TAB)
            assert active_id(driver) == "search-query", active_id(driver)
            keys(driver, "London")
            c.wait(lambda: c.count("#search-results li button") == 2, "two results")
            keys(driver, Keys.ARROW_DOWN)
            assert driver.execute_script("return document.activeElement.textContent") == \
                "London, England — United Kingdom"
            keys(driver, Keys.ARROW_DOWN, Keys.ARROW_UP, Keys.ENTER)
            c.wait(lambda: c.displayed("#forecast-svg"), "Enter on a result shows its forecast")
            driver.execute_script("document.getElementById('tab-search').focus()")
            keys(driver, Keys.ARROW_RIGHT)
            c.wait(lambda: c.attribute("#tab-settings", "aria-selected") == "true", "→ selects Settings")
            keys(driver, Keys.TAB)
            assert active_id(driver) == "setting-displayName", active_id(driver)
            keys(driver, "Kay")
            c.wait(lambda: c.text("#header") == "Hello, Kay!", "typed by keyboard")
            keys(driver, Keys.TAB, Keys.TAB)
            assert active_id(driver) == "setting-enableNotifications", active_id(driver)
            keys(driver, Keys.SPACE)
            c.wait(lambda: c.selected("#setting-enableNotifications"), "Space toggles")
            driver.execute_script("document.getElementById('tab-settings').focus()")
            keys(driver, Keys.END)
            c.wait(lambda: c.attribute("#tab-episodes", "aria-selected") == "true", "End selects Episodes")
            keys(driver, Keys.TAB)
            assert active_id(driver) == "episodes-favorites-only", active_id(driver)
            keys(driver, Keys.TAB)
            assert driver.execute_script("return document.activeElement.dataset.do") == "episode.open"
            keys(driver, Keys.ENTER)
            c.wait(lambda: c.displayed("#episode-screen"), "Enter opens the screen")
            c.wait(lambda: active_id(driver) == "screen-close", "focus moves into the screen")
            keys(driver, Keys.ENTER)
            c.wait(lambda: c.displayed("#episode-screen") is False, "Enter on ‹ Episodes closes it")
            c.wait(lambda: driver.execute_script("return document.activeElement.dataset.do") == "episode.open",
                   "focus is back on the row")
            keys(driver, Keys.HOME)
            driver.execute_script("document.getElementById('tab-episodes').focus()")
            keys(driver, Keys.HOME)
            c.wait(lambda: c.attribute("#tab-counters", "aria-selected") == "true", "Home selects Counters")

        def no_serious_accessibility_violations_on_any_screen():
            found = {}
            for width in (1280, 390):
                driver.set_window_size(width, 900)
                # Every tab the page has, a feature added to the table included.
                tabs = driver.execute_script(
                    "return [...document.querySelectorAll('[role=tab]')].map(b => b.dataset.tab)")
                assert {"counters", "search", "settings", "episodes"} <= set(tabs), tabs
                for tab in tabs:
                    c.click(f"#tab-{tab}")
                    c.wait(lambda: c.attribute(f"#tab-{tab}", "aria-selected") == "true", tab)
                    for violation in serious_accessibility_violations(driver):
                        found[(width, tab, violation["id"])] = violation
                    if SCREENSHOTS:
                        driver.save_screenshot(os.path.join(SCREENSHOTS, f"{tab}-{width}.png"))
            driver.set_window_size(1280, 900)
            assert not found, json.dumps(list(found.values()), indent=1)[:3000]

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
            counts = three_and_a_running_timer(c)
            increment = '#counter-list .counter [data-do="counter.increment"]'
            first.kill()
            first.wait(timeout=10)
            processes.remove(first)
            # While no server answers, the page says so and takes no input.
            c.wait(lambda: c.text("#connection") == "reconnecting…", "reconnecting shown")
            c.wait(lambda: c.attribute("main", "inert") is not None, "the page takes no input")

            second, _ = launch(["--offline", "--database", database], port=port)
            processes.append(second)
            c.wait(lambda: c.text("#connection") == "live", "the event stream reconnected")
            c.wait(lambda: c.attribute("main", "inert") is None, "the page takes input again")
            assert "shown" not in (c.attribute("#banner", "class") or ""), c.text("#banner-text")
            assert (counts() or [None])[0] == "3", counts()
            ticked = int(counts()[1])
            c.wait(lambda: int((counts() or ["0", "0"])[1]) > ticked, "the timer runs again")
            c.click(increment, 0)
            c.wait(lambda: (counts() or [None])[0] == "4", "the session goes on: count 4")

        def counters_outlive_an_idle_expiry_and_a_browser_restart():
            # Counters are the visitor's, like favorites and settings: a session that expires
            # while its tab is open and a timer runs comes back with them, and so does a browser
            # that restarts (it drops the cookies that have no expiry).
            server, url = launch(["--offline", "--idle-timeout", "1"])
            processes.append(server)
            profile = tempfile.mkdtemp(dir=DATA_HOME)
            browser = make_driver(profile)
            try:
                b = Checks(browser)
                browser.get(url)
                counts = three_and_a_running_timer(b)
                # An event stream is counted when it closes: the sweeper ended the session.
                streams = lambda: metric(url, "app_http_request_duration_seconds_count",
                                         route="/api/session/events", method="GET")
                before = streams()
                b.wait(lambda: streams() > before, "the idle session expired", timeout=60)
                b.wait(lambda: b.text("#connection") == "live", "the event stream reconnected")
                b.wait(lambda: len(counts()) == 2 and counts()[0] == "3", "the counters are back")
                ticked = int(counts()[1])
                b.wait(lambda: int((counts() or ["0", "0"])[1]) > ticked, "the timer runs again")
                b.click('#counter-list .counter [data-do="counter.timer"]', 1)
                b.wait(lambda: b.text('#counter-list .counter [data-do="counter.timer"]', 1)
                       == "Start timer", "timer off")
                kept = counts()
                browser.quit()
                browser = make_driver(profile)
                b = Checks(browser)
                counts = lambda: b.texts("#counter-list .counter .count")
                browser.get(url)
                b.wait(lambda: b.text("#connection") == "live", "the restarted browser is live")
                assert counts() == kept, (counts(), kept)
            finally:
                browser.quit()

        def a_refused_event_stream_is_tried_again_with_pauses():
            # A session takes at most four event streams (other tabs, pages being reloaded whose
            # streams have not closed yet); a fifth is refused with 429. The page must then wait
            # between tries (Retry-After, else a growing, jittered pause), not ask again at once:
            # a page that retried at once sent 40-280 requests a second until a slot freed.
            def streams_asked():
                return metric(offline_url, "app_http_request_duration_seconds_count",
                              route="/api/session/events", method="GET")
            driver.get(offline_url)
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            cookie = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in
                               driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"])
            driver.get("about:blank")
            address = urllib.parse.urlsplit(offline_url)
            held = []
            try:
                request = (f"GET /api/session/events HTTP/1.1\r\nHost: {address.netloc}\r\n"
                           f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n").encode()
                # Every free slot of the session taken (the page left may still hold one).
                refusals = 0
                while len(held) < 4 and refusals < 5:
                    stream = socket.create_connection((address.hostname, address.port), timeout=10)
                    stream.sendall(request)
                    if stream.recv(64).startswith(b"HTTP/1.1 200"):
                        held.append(stream)
                    else:
                        stream.close()
                        refusals += 1
                        time.sleep(0.1)
                assert held, "no stream of the session could be opened"
                driver.get(offline_url)
                c.wait(lambda: c.text("#connection") == "reconnecting…", "the page is refused a stream")
                before, started = streams_asked(), time.monotonic()
                time.sleep(5)
                asked, elapsed = streams_asked() - before, time.monotonic() - started
                assert asked <= 6, f"{asked:.0f} event-stream requests in {elapsed:.1f} s"
            finally:
                for stream in held:
                    stream.close()
            c.wait(lambda: c.text("#connection") == "live", "the page follows its session again")

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
            ("the list shows the favorites only, and every episode again",
             the_list_shows_the_favorites_only),
            ("a reload resumes the session from its HttpOnly cookie; no CSP violation",
             session_survives_a_reload),
            ("failed favorite shows an alert; OK rolls back", failed_favorite_alert_and_rollback),
            ("a favorite whose screen is left mid-save is not kept when the save fails",
             a_favorite_whose_screen_is_left_mid_save_is_not_kept),
            ("upstream errors are visible", upstream_errors_are_visible),
            ("a first visit logs no error and counts no refusal; /readyz is text", first_visit_is_quiet),
            ("counters have names; the removal's button looks destructive",
             counters_are_named_and_removal_looks_destructive),
            ("a search that finds nothing says so; fast typing sends few requests",
             search_says_when_nothing_is_found_and_typing_fast_is_fine),
            ("the chart has a legend, a unit and a visible credit", chart_has_a_legend_a_unit_and_a_credit),
            ("Enter in the settings submits nothing; channels are disabled while notifications are off",
             settings_form_enter_and_disabled_channels),
            ("Back, Forward, reload and a shared link follow the screens",
             back_forward_reload_and_a_shared_link),
            ("a keyboard alone goes through every tab", keyboard_only_through_every_tab),
            ("no serious or critical accessibility violation (axe-core, WCAG 2.2 AA), 1280 and 390 px",
             no_serious_accessibility_violations_on_any_screen),
            ("a bad variable or flag stops the server with a clear message",
             bad_configuration_stops_the_server),
            ("offline: Seoul's forecast starts today, °C then °F, labelled",
             offline_search_forecast_today_in_the_chosen_unit),
            ("favorites and settings are kept across a server restart", kept_across_a_restart),
            ("the page reconnects to the same state after a crash",
             the_page_reconnects_to_the_same_state_after_a_crash),
            ("counters outlive an idle expiry with the tab open and a browser restart",
             counters_outlive_an_idle_expiry_and_a_browser_restart),
            ("a refused event stream is tried again with growing pauses; the page is live again",
             a_refused_event_stream_is_tried_again_with_pauses),
            ("a database that cannot be opened stops the server with its name",
             a_database_that_cannot_be_opened_stops_the_server),
        ]:
            if ONLY and ONLY not in name:
                continue
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
