"""Headless Chromium driven by Selenium, and the ways the tests read and drive the app's page."""

import json
import os
import pkgutil
import time

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from .prerequisites import require_program

BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
DRIVERS = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
TIMEOUT = 20  # seconds a page condition may take before the check fails


class Chromium:
    """Starts headless Chromium browsers (Debian's chromium and chromium-driver)."""

    def __init__(self):
        self.browser = next((path for path in BROWSERS if os.path.exists(path)), None)
        self.driver_path = next((path for path in DRIVERS if os.path.exists(path)), None)
        if self.browser is None:
            self.browser = require_program("chromium", "chromium", "the web tests run the page in it")
        if self.driver_path is None:
            self.driver_path = require_program("chromedriver", "chromium-driver",
                                               "Selenium drives Chromium through it")

    def driver(self, profile=None):
        """A new browser; with `profile`, a folder that keeps its cookies when it quits, so that
        a second driver on the same folder is the same browser started again."""
        options = Options()
        if profile:
            options.add_argument(f"--user-data-dir={profile}")
        options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")
        options.add_argument("--disable-dev-shm-usage")
        options.add_argument("--disable-gpu")
        options.add_argument("--window-size=1200,1000")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        options.binary_location = self.browser
        return webdriver.Chrome(service=Service(executable_path=self.driver_path), options=options)


def page_state(driver):
    """The session's state as the API gives it to the page (with the page's cookies)."""
    return json.loads(driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/session/state').then(r => r.text()).then(done);"))["state"]


def fetch(driver, path, method="GET"):
    """`path` fetched by the page (with its cookies): (status, body)."""
    return tuple(driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"fetch({json.dumps(path)}, {{method: {json.dumps(method)}}})"
        ".then(async r => done([r.status, await r.text()]));"))


def panel_text(driver):
    """The text of the developer panel ("" while it is hidden)."""
    return driver.execute_script(
        "const p = document.getElementById('devtools'); return p && !p.hidden ? p.innerText : ''")


def wait(driver, condition, what, timeout=20):
    """Waits until `condition()` is true; the failure names `what` it waited for."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition())
    except Exception:
        raise AssertionError(f"timed out waiting for {what}")


def live(driver):
    """Waits until the page's event stream is open."""
    wait(driver, lambda: driver.find_element(By.ID, "connection").text == "live", "the session")


def console_errors(driver, seen):
    """Adds the browser's console since the last call to `seen`; the messages of its errors."""
    seen.extend(driver.get_log("browser"))
    return [entry["message"] for entry in seen if entry["level"] == "SEVERE"]


def name_and_favorite(page, name, episode):
    """Types a display name in Settings and favorites an episode, until both are acknowledged."""
    page.click("#tab-settings")
    page.wait(lambda: page.displayed("#setting-displayName"), "settings shown")
    page.type("#setting-displayName", name)
    page.wait(lambda: page.text("#header") == f"Hello, {name}!", f"header greets {name}")
    page.click("#tab-episodes")
    heart = "#episode-list .episode .heart"
    page.wait(lambda: page.displayed(heart, episode), "episodes shown")
    page.click(heart, episode)
    page.wait(lambda: page.attribute(heart, "aria-pressed", episode) == "true", "favorited")
    page.wait(lambda: page_state(page.driver)["episodes"][episode]["isFavorite"] is True,
              "acknowledged")


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


class Page:
    """Reads and drives the app's page in one browser.

    The page re-renders its elements (a list's rows are replaced, a table is redrawn), so a
    Selenium WebElement found a moment ago may be gone by the time it is read, and reading it
    raises StaleElementReferenceException at random. So nothing here holds a WebElement:

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

    def describe(self):
        """What the page shows, for a failed test: its address and history, the tab and screens
        it draws, the session's state on the server, and the browser's console. Best effort: a
        page that cannot answer says so."""
        lines = []
        try:
            shown = self.driver.execute_script(
                "return {address: location.pathname, historyLength: history.length,"
                " historyState: history.state,"
                " tab: (document.querySelector('nav [aria-selected=true]') || {}).id,"
                " screenShown: !document.querySelector('#episode-screen')?.hidden,"
                " connection: document.querySelector('#connection')?.textContent,"
                " banner: document.querySelector('#banner.shown #banner-text')?.textContent};")
            lines.append(f"page: {shown}")
            state = page_state(self.driver)
            lines.append(f"session: selectedTab={state.get('selectedTab')} screens="
                         f"{[screen.get('id') for screen in state.get('episodeScreens') or []]}")
            for entry in self.driver.get_log("browser")[-10:]:
                lines.append(f"console: {entry['level']} {entry['message']}")
        except Exception as error:  # noqa: BLE001 - the description must not hide the failure
            lines.append(f"(the page could not be described: {type(error).__name__}: {error})")
        return "\n".join(lines)

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
