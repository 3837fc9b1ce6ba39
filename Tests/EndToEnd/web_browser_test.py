"""End-to-end tests of app-server in a real browser (headless Chromium driven by Selenium).

The built binary (support/binaries.py: APP_BIN_DIR, else .build/debug) runs on free ports of
127.0.0.1, with every upstream base URL pointed at a fixture HTTP server that serves the
Open-Meteo fixtures of Tests/WebFrontendTests/Fixtures and a number-trivia text. The tests drive
the page like a visitor and check what it shows.

Three servers are shared by the file: one whose simulated favorites service always succeeds, one
whose favorites always fail and whose geocoding service is unreachable (for the alert and the
visible errors), and one offline. So is one browser: most tests go on from the page the test
before left (`@continues`), as a visitor goes from screen to screen.

SCREENSHOTS_DIR=folder keeps a screenshot of every tab at 1280 and 390 px for a person to look
at; BROWSER_CHECKS=text runs only the tests whose name holds `text` (as `-k` does).
"""

import datetime
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import types
import urllib.parse
import urllib.request
import zoneinfo

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from support.browser import Page, name_and_favorite, page_state
from support.order import continues
from support.reporting import failed
from support.servers import free_port, metric

# Where to keep a screenshot of every screen at 1280 and 390 px, for a person to look at.
SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")


def launch(services, folder, *arguments, port=None):
    """app-server with `arguments`, a database of its own unless they name one."""
    if "--database" not in arguments:
        arguments = [*arguments, "--database", folder / f"app-{free_port()}.sqlite"]
    return services.app_server(*arguments, "--log-level", "warning", port=port)


@pytest.fixture(scope="module")
def sites(module_services, web_upstream, tmp_path_factory):
    """The addresses of the three servers the file shares: `happy`, `failing`, `offline`."""
    folder = tmp_path_factory.mktemp("databases")
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    happy = launch(module_services, folder, "--geocoding-url", web_upstream,
                   "--forecast-url", web_upstream, "--fact-url", web_upstream,
                   "--favorite-failure-rate", "0")
    failing = launch(module_services, folder, "--geocoding-url", closed,
                     "--forecast-url", web_upstream, "--fact-url", web_upstream,
                     "--favorite-failure-rate", "1")
    offline = launch(module_services, folder, "--offline")
    return types.SimpleNamespace(happy=happy.url, failing=failing.url, offline=offline.url)


@pytest.fixture(scope="module")
def driver(chromium):
    """The browser the file's tests share."""
    browser = chromium.driver()
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def page(driver):
    return Page(driver)


@pytest.fixture(autouse=True)
def page_described_on_failure(request):
    """After a failed test that used the shared browser: what its page showed."""
    yield
    if "page" in request.fixturenames and failed(request.node):
        print(request.getfixturevalue("page").describe(), flush=True)


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


def three_and_a_running_timer(page):
    """On a fresh page: the first counter to 3, a second counter whose timer runs and has
    ticked. Returns the function that reads the counts."""
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    increment = '#counter-list .counter [data-do="counter.increment"]'
    counts = lambda: page.texts("#counter-list .counter .count")
    for expected in ("1", "2", "3"):
        page.click(increment, 0)
        page.wait(lambda: (counts() or [None])[0] == expected, f"count {expected}")
    page.click("#add-counter")
    page.wait(lambda: len(counts()) == 2, "two counters")
    page.click('#counter-list .counter [data-do="counter.timer"]', 1)
    page.wait(lambda: int((counts() or ["0", "0"])[1]) >= 1, "the second counter's timer ticks")
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


# A visitor on the server whose services all answer.


def test_page_loads_with_a_session_and_an_event_stream(driver, page, sites):
    driver.get(sites.happy)
    page.wait(lambda: page.text("#header") == "Composable App", "header")
    page.wait(lambda: page.count("#counter-list .counter") == 1, "one counter")
    page.wait(lambda: page.text("#connection") == "live", "event stream open")


@continues(test_page_loads_with_a_session_and_an_event_stream)
def test_counter_increments_and_decrements(page):
    page.click('#counter-list .counter [data-do="counter.increment"]')
    page.click('#counter-list .counter [data-do="counter.increment"]')
    page.wait(lambda: page.text("#counter-list .counter .count") == "2", "count 2")
    page.click('#counter-list .counter [data-do="counter.decrement"]')
    page.wait(lambda: page.text("#counter-list .counter .count") == "1", "count 1")


@continues(test_counter_increments_and_decrements)
def test_counter_fact_comes_from_the_trivia_service(page):
    page.click('#counter-list .counter [data-do="counter.fact"]')
    page.wait(lambda: page.text("#counter-list .counter .fact") == "1 is the number of the fixture server.",
              "fact shown")


@continues(test_counter_fact_comes_from_the_trivia_service)
def test_counters_are_added_and_removed(page):
    page.click("#add-counter")
    page.wait(lambda: page.count("#counter-list .counter") == 2, "two counters")
    page.click('#counter-list .counter [data-do="counter.remove"]', 1)
    page.wait(lambda: page.displayed("#removal-confirmation"), "removal asks first")
    assert (title := page.text("#removal-title")) == "Remove Counter 2?", title
    page.click("#removal-confirm")
    page.wait(lambda: page.count("#counter-list .counter") == 1, "one counter again")


@continues(test_counters_are_added_and_removed)
def test_timer_ticks_are_pushed_to_the_page(page):
    page.click('#counter-list .counter [data-do="counter.timer"]')
    page.wait(lambda: int(page.text("#counter-list .counter .count")) >= 3, "two ticks arrived")
    page.click('#counter-list .counter [data-do="counter.timer"]')
    page.wait(lambda: page.text('#counter-list .counter [data-do="counter.timer"]') == "Start timer",
              "timer off")


@continues(test_timer_ticks_are_pushed_to_the_page)
def test_search_shows_results_and_a_forecast_chart(page):
    page.click("#tab-search")
    page.wait(lambda: page.displayed("#search-query"), "search tab shown")
    page.type("#search-query", "London")
    page.wait(lambda: page.count("#search-results li button") == 2, "two results")
    assert (first := page.text("#search-results li button")) == "London, England — United Kingdom", first
    page.wait(lambda: page.displayed("#search-spinner") is False, "spinner gone")
    page.click("#search-results li button", 0)
    page.wait(lambda: page.count("#forecast-svg") == 1 and page.displayed("#forecast-svg"), "chart shown")
    assert page.count("#forecast-svg polyline.series-max") == 1
    assert page.count("#forecast-svg polyline.series-min") == 1
    assert page.count("#forecast-svg circle") == 14
    assert page.text("#forecast-title") == "Forecast for London"
    rows = page.texts("#forecast-table tr")
    assert len(rows) == 8, len(rows)
    # Days are named as in the terminal ("Today", then the weekday), dated underneath.
    assert rows[1].startswith("Today") and "28.1 °C" in rows[1], rows[1]
    assert page.attribute("#forecast-table time", "datetime") == "2026-05-24"
    assert page.displayed("#forecast-estimate") is False, "a live forecast is no estimate"


@continues(test_search_shows_results_and_a_forecast_chart)
def test_display_name_changes_the_header(page):
    page.click("#tab-settings")
    page.wait(lambda: page.displayed("#setting-displayName"), "settings tab shown")
    page.type("#setting-displayName", "Blob")
    page.wait(lambda: page.text("#header") == "Hello, Blob!", "header greets Blob")
    page.click("#setting-protectMyPosts")
    page.wait(lambda: page.selected("#setting-protectMyPosts"), "toggle on")


@continues(test_display_name_changes_the_header)
def test_reset_asks_for_confirmation_and_cancel_keeps_the_settings(page):
    page.click("#reset-settings")
    page.wait(lambda: page.displayed("#reset-confirmation"), "confirmation shown")
    assert (title := page.text("#reset-title")) == "Reset all settings?", title
    page.click("#reset-cancel")
    page.wait(lambda: page.displayed("#reset-confirmation") is False, "cancelled")
    assert page.text("#header") == "Hello, Blob!", "cancelling changes nothing"


@continues(test_reset_asks_for_confirmation_and_cancel_keeps_the_settings)
def test_favorite_succeeds(page):
    page.click("#tab-episodes")
    heart = "#episode-list .episode .heart"
    page.wait(lambda: page.displayed(heart, 0), "episodes shown")
    page.click(heart, 0)
    page.wait(lambda: page.attribute(heart, "aria-pressed", 0) == "true", "favorited")
    # The choice and its save in flight come in one state: once the heart is pressed, the save
    # has started, and aria-busy goes back to false when the service (1 s) has answered. The
    # answer must keep the favorite.
    page.wait(lambda: page.attribute(heart, "aria-busy", 0) == "false", "saved")
    assert page.attribute(heart, "aria-pressed", 0) == "true"
    assert page.displayed("#episode-list .episode .alert", 0) is False


@continues(test_favorite_succeeds)
def test_an_episode_screen_is_pushed_shares_the_favorite_and_closes_itself(page):
    # The Episodes tab is shown (test_favorite_succeeds left it): open the third episode's screen.
    page.click('#episode-list .episode [data-do="episode.open"]', 2)
    page.wait(lambda: page.displayed("#episode-screen"), "screen pushed")
    assert page.displayed("#episode-list") is False, "the screen covers the list"
    assert (title := page.text("#screen-title")) == "Algebraic Data Types", title
    page.click("#screen-heart")
    page.wait(lambda: page.attribute("#screen-heart", "aria-pressed") == "true", "favorited")
    page.click("#screen-close")
    page.wait(lambda: page.displayed("#episode-screen") is False, "screen closed (dismiss)")
    assert page.attribute("#episode-list .episode .heart", "aria-pressed", 2) == "true", \
        "the row shares the favorite"


@continues(test_an_episode_screen_is_pushed_shares_the_favorite_and_closes_itself)
def test_the_list_shows_the_favorites_only_and_every_episode_again(driver, page):
    favorites = [e["title"] for e in page_state(driver)["episodes"] if e["isFavorite"]]
    assert favorites, "earlier checks favorited some episodes"
    page.click("#episodes-favorites-only")
    page.wait(lambda: page.count("#episode-list .episode") == len(favorites), "favorites only")
    titles = [page.text("#episode-list .episode .title", i) for i in range(len(favorites))]
    assert titles == favorites, (titles, favorites)
    assert page.text("#episodes-filter-count") == f"{len(favorites)} of 6"
    assert page.selected("#episodes-favorites-only")
    driver.refresh()
    page.wait(lambda: page.count("#episode-list .episode") == len(favorites), "kept on reload")
    assert page.selected("#episodes-favorites-only")
    page.click("#episodes-favorites-only")
    page.wait(lambda: page.count("#episode-list .episode") == 6, "every episode again")
    assert page.text("#episodes-filter-count") == ""


@continues(test_the_list_shows_the_favorites_only_and_every_episode_again)
def test_a_reload_resumes_the_session_from_its_httponly_cookie_without_csp_violation(driver, page):
    # The session id is in an HttpOnly cookie: a reload resumes the same session, and
    # no script on the page can read the id.
    driver.refresh()
    page.wait(lambda: page.text("#header") == "Hello, Blob!", "same session after a reload")
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


# A new visitor on the server whose favorites fail and whose geocoding cannot be reached.


def test_a_failed_favorite_shows_an_alert_and_ok_rolls_back(driver, page, sites):
    driver.get(sites.failing)
    page.wait(lambda: page.text("#header") == "Composable App", "fresh session")
    page.click("#tab-episodes")
    heart = "#episode-list .episode .heart"
    alert = "#episode-list .episode .alert"
    page.wait(lambda: page.displayed(heart, 1), "episodes shown")
    page.click(heart, 1)
    page.wait(lambda: page.attribute(heart, "aria-pressed", 1) == "true", "optimistic favorite")
    page.wait(lambda: page.displayed(alert, 1), "alert shown")
    assert (text := page.text(alert, 1)).startswith("Favoriting failed."), text
    # Every episode's alert has exactly one button (its OK): the second alert's button.
    page.click(alert + " button", 1)
    page.wait(lambda: page.displayed(alert, 1) is False, "alert dismissed")
    page.wait(lambda: page.attribute(heart, "aria-pressed", 1) == "false", "rolled back")


@continues(test_a_failed_favorite_shows_an_alert_and_ok_rolls_back)
def test_a_favorite_whose_screen_is_left_mid_save_is_not_kept_when_the_save_fails(driver, page):
    # The newcomer's sequence on the failing server: open an episode, favorite it, and go
    # Back at once. The save goes on without its screen: its failure shows on the list,
    # OK puts the heart back, and a reload shows nothing kept.
    heart = "#episode-list .episode .heart"
    alert = "#episode-list .episode .alert"
    page.click('#episode-list .episode [data-do="episode.open"]', 4)
    page.wait(lambda: page.displayed("#episode-screen"), "screen pushed")
    page.click("#screen-heart")
    page.wait(lambda: page.attribute("#screen-heart", "aria-pressed") == "true", "favorited")
    driver.back()
    page.wait(lambda: page.displayed("#episode-screen") is False, "Back closes the screen")
    assert page.attribute(heart, "aria-pressed", 4) == "true", "the row shows the choice"
    page.wait(lambda: page.displayed(alert, 4), "the failure shows on the list")
    assert (text := page.text(alert, 4)).startswith("Favoriting failed."), text
    page.click(alert + " button", 4)
    page.wait(lambda: page.attribute(heart, "aria-pressed", 4) == "false", "rolled back")
    driver.refresh()
    page.wait(lambda: page.displayed(heart, 4), "reloaded")
    time.sleep(0.5)
    assert page.attribute(heart, "aria-pressed", 4) == "false", "nothing was kept"


@continues(test_a_favorite_whose_screen_is_left_mid_save_is_not_kept_when_the_save_fails)
def test_upstream_errors_are_visible(page):
    page.click("#tab-search")
    page.type("#search-query", "Seoul")
    page.wait(lambda: page.displayed("#search-error"), "error shown")
    assert (error := page.text("#search-error")).startswith("Open-Meteo geocoding: cannot reach"), error


# A new visitor on the server whose services all answer.


def test_a_first_visit_logs_no_error_and_counts_no_refusal_and_readyz_is_text(driver, page, sites):
    # A first visit opens its session with one request: no 404 in the console, nothing
    # counted as refused.
    forget_cookies(driver)
    driver.get_log("browser")
    refused = metric(sites.happy, "app_requests_refused_total")
    driver.get(sites.happy)
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    assert metric(sites.happy, "app_requests_refused_total") == refused
    ready = urllib.request.urlopen(sites.happy + "readyz", timeout=10)
    assert ready.headers["Content-Type"] == "text/plain; charset=utf-8", ready.headers["Content-Type"]


@continues(test_a_first_visit_logs_no_error_and_counts_no_refusal_and_readyz_is_text)
def test_counters_have_names_and_the_removal_button_looks_destructive(page):
    page.click("#tab-counters")
    page.click("#add-counter")
    page.wait(lambda: page.count("#counter-list .counter") == 2, "two counters")
    assert page.texts("#counter-list .counter .counter-name") == ["Counter 1", "Counter 2"]
    assert page.attributes("#counter-list .counter", "aria-label") == ["Counter 1", "Counter 2"]
    page.click('#counter-list .counter [data-do="counter.remove"]', 1)
    page.wait(lambda: page.displayed("#removal-confirmation"), "removal asks first")
    assert "destructive" in page.attribute("#removal-confirm", "class").split()
    assert "destructive" not in page.attribute("#removal-cancel", "class").split()
    page.click("#removal-confirm")
    page.wait(lambda: page.count("#counter-list .counter") == 1, "one counter again")


@continues(test_counters_have_names_and_the_removal_button_looks_destructive)
def test_a_search_that_finds_nothing_says_so_and_fast_typing_sends_few_requests(page, sites):
    page.click("#tab-search")
    assert page.attribute("#search-query", "maxlength") == "200"
    page.replace_text("#search-query", "Zzyzx")
    page.wait(lambda: page.displayed("#search-empty"), "no results said")
    assert page.text("#search-empty") == "No places found."
    # Thirty characters typed as fast as the driver can: a few requests, never a 429.
    sent = metric(sites.happy, "app_actions_total", type="search.query")
    page.replace_text("#search-query", "a long name nobody ever typed ")
    page.wait(lambda: page.displayed("#search-empty"), "searched")
    requests = metric(sites.happy, "app_actions_total", type="search.query") - sent
    assert requests < 30, requests
    assert "shown" not in (page.attribute("#banner", "class") or ""), page.text("#banner-text")
    page.replace_text("#search-query", "London")
    page.wait(lambda: page.count("#search-results li button") == 2, "two results")
    assert page.displayed("#search-empty") is False


@continues(test_a_search_that_finds_nothing_says_so_and_fast_typing_sends_few_requests)
def test_the_chart_has_a_legend_a_unit_and_a_visible_credit(driver, page):
    page.click("#search-results li button", 0)
    page.wait(lambda: page.displayed("#forecast-svg"), "chart shown")
    assert page.texts("#forecast-svg text.legend") == ["Maximum", "Minimum"]
    assert page.text("#forecast-svg text.unit") == "°C"
    assert page.text("#forecast-credit") == "Weather data by Open-Meteo.com (CC BY 4.0).", page.text("#forecast-credit")
    # The chart takes the card's width.
    widths = driver.execute_script(
        "return [document.querySelector('#forecast-svg').getBoundingClientRect().width,"
        " document.querySelector('#forecast').clientWidth]")
    assert widths[0] > 0.85 * widths[1], widths


@continues(test_the_chart_has_a_legend_a_unit_and_a_visible_credit)
def test_enter_in_the_settings_submits_nothing_and_channels_are_disabled_while_notifications_are_off(driver, page):
    page.click("#tab-settings")
    page.wait(lambda: page.displayed("#setting-displayName"), "settings shown")
    driver.get_log("browser")
    page.type("#setting-displayName", Keys.ENTER)
    time.sleep(0.5)
    assert path(driver) == "/settings", driver.current_url
    violations = [e["message"] for e in driver.get_log("browser")
                  if "Content Security Policy" in e["message"] or e["level"] == "SEVERE"]
    assert not violations, violations
    assert page.selected("#setting-enableNotifications") is False
    for channel in ("#setting-sendEmailNotifications", "#setting-sendMobileNotifications"):
        assert page.attribute(channel, "disabled") is not None, f"{channel} is not disabled"
    assert page.displayed("#channels-hint")
    page.click("#setting-enableNotifications")
    page.wait(lambda: page.attribute("#setting-sendEmailNotifications", "disabled") is None, "enabled")
    assert page.displayed("#channels-hint") is False
    page.click("#setting-sendEmailNotifications")
    page.wait(lambda: page.selected("#setting-sendEmailNotifications"), "e-mail on")
    page.click("#setting-enableNotifications")
    page.wait(lambda: page.attribute("#setting-sendEmailNotifications", "disabled") is not None, "disabled again")
    assert page.selected("#setting-sendEmailNotifications") is False


@continues(test_enter_in_the_settings_submits_nothing_and_channels_are_disabled_while_notifications_are_off)
def test_back_forward_reload_and_a_shared_link_follow_the_screens(driver, page, sites):
    page.click("#tab-episodes")
    page.wait(lambda: path(driver) == "/episodes", "the address is the tab's")
    page.click('#episode-list .episode [data-do="episode.open"]', 1)
    page.wait(lambda: page.displayed("#episode-screen"), "screen pushed")
    episode = page_state(driver)["episodeScreens"][-1]
    address = "/episodes/" + episode["id"].lower()
    page.wait(lambda: path(driver) == address, "the address names the screen")
    driver.back()
    page.wait(lambda: page.displayed("#episode-screen") is False, "Back closes the screen")
    assert path(driver) == "/episodes", driver.current_url
    driver.back()
    page.wait(lambda: page.attribute("#tab-settings", "aria-selected") == "true", "Back goes to the tab before")
    assert path(driver) == "/settings", driver.current_url
    driver.forward()
    page.wait(lambda: page.attribute("#tab-episodes", "aria-selected") == "true", "Forward: the tab")
    driver.forward()
    page.wait(lambda: page.displayed("#episode-screen"), "Forward opens the screen again")
    assert page.text("#screen-title") == episode["title"]
    driver.refresh()
    page.wait(lambda: page.displayed("#episode-screen"), "a reload keeps the screen")
    assert path(driver) == address
    # A link to the screen, opened by someone with no session yet.
    forget_cookies(driver)
    driver.get(sites.happy.rstrip("/") + address)
    page.wait(lambda: page.displayed("#episode-screen"), "the shared link opens the screen")
    assert page.text("#screen-title") == episode["title"]
    assert "session" not in driver.current_url.lower()
    page.click("#screen-close")
    page.wait(lambda: path(driver) == "/episodes", "closed")
    # An address that is not the page's is replaced by the screen's own.
    driver.get(sites.happy + "episodes/not-an-episode")
    page.wait(lambda: path(driver) == "/episodes", "an unknown address is corrected")


# A new visitor with a keyboard alone.


def test_a_keyboard_alone_goes_through_every_tab(driver, page, sites):
    forget_cookies(driver)
    driver.get(sites.happy)
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    keys(driver, Keys.TAB)
    assert active_id(driver) == "tab-counters", active_id(driver)
    keys(driver, Keys.TAB)
    assert active_id(driver) == "add-counter", active_id(driver)
    keys(driver, Keys.ENTER)
    page.wait(lambda: page.count("#counter-list .counter") == 2, "a counter added by keyboard")
    shift_tab(driver)
    assert active_id(driver) == "tab-counters", active_id(driver)
    keys(driver, Keys.ARROW_RIGHT)
    page.wait(lambda: page.attribute("#tab-search", "aria-selected") == "true", "→ selects Search")
    assert active_id(driver) == "tab-search"
    keys(driver, Keys.TAB)
    assert active_id(driver) == "search-query", active_id(driver)
    keys(driver, "London")
    page.wait(lambda: page.count("#search-results li button") == 2, "two results")
    keys(driver, Keys.ARROW_DOWN)
    assert driver.execute_script("return document.activeElement.textContent") == \
        "London, England — United Kingdom"
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_UP, Keys.ENTER)
    page.wait(lambda: page.displayed("#forecast-svg"), "Enter on a result shows its forecast")
    driver.execute_script("document.getElementById('tab-search').focus()")
    keys(driver, Keys.ARROW_RIGHT)
    page.wait(lambda: page.attribute("#tab-settings", "aria-selected") == "true", "→ selects Settings")
    keys(driver, Keys.TAB)
    assert active_id(driver) == "setting-displayName", active_id(driver)
    keys(driver, "Kay")
    page.wait(lambda: page.text("#header") == "Hello, Kay!", "typed by keyboard")
    keys(driver, Keys.TAB, Keys.TAB)
    assert active_id(driver) == "setting-enableNotifications", active_id(driver)
    keys(driver, Keys.SPACE)
    page.wait(lambda: page.selected("#setting-enableNotifications"), "Space toggles")
    driver.execute_script("document.getElementById('tab-settings').focus()")
    keys(driver, Keys.END)
    page.wait(lambda: page.attribute("#tab-episodes", "aria-selected") == "true", "End selects Episodes")
    keys(driver, Keys.TAB)
    assert active_id(driver) == "episodes-favorites-only", active_id(driver)
    keys(driver, Keys.TAB)
    assert driver.execute_script("return document.activeElement.dataset.do") == "episode.open"
    keys(driver, Keys.ENTER)
    page.wait(lambda: page.displayed("#episode-screen"), "Enter opens the screen")
    page.wait(lambda: active_id(driver) == "screen-close", "focus moves into the screen")
    keys(driver, Keys.ENTER)
    page.wait(lambda: page.displayed("#episode-screen") is False, "Enter on ‹ Episodes closes it")
    page.wait(lambda: driver.execute_script("return document.activeElement.dataset.do") == "episode.open",
              "focus is back on the row")
    keys(driver, Keys.HOME)
    driver.execute_script("document.getElementById('tab-episodes').focus()")
    keys(driver, Keys.HOME)
    page.wait(lambda: page.attribute("#tab-counters", "aria-selected") == "true", "Home selects Counters")


@continues(test_a_keyboard_alone_goes_through_every_tab)
def test_no_serious_accessibility_violation_on_any_tab_at_1280_and_390_px(driver, page):
    found = {}
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        # Every tab the page has, a feature added to the table included.
        tabs = driver.execute_script(
            "return [...document.querySelectorAll('[role=tab]')].map(b => b.dataset.tab)")
        assert {"counters", "search", "settings", "episodes"} <= set(tabs), tabs
        for tab in tabs:
            page.click(f"#tab-{tab}")
            page.wait(lambda: page.attribute(f"#tab-{tab}", "aria-selected") == "true", tab)
            for violation in serious_accessibility_violations(driver):
                found[(width, tab, violation["id"])] = violation
            if SCREENSHOTS:
                driver.save_screenshot(os.path.join(SCREENSHOTS, f"{tab}-{width}.png"))
    driver.set_window_size(1280, 900)
    assert not found, json.dumps(list(found.values()), indent=1)[:3000]


# Tests that start from a page of their own, or need none.


def test_a_bad_variable_or_flag_stops_the_server_with_a_clear_message(binaries):
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
        result = subprocess.run([binaries.app_server, *arguments], capture_output=True, text=True,
                                timeout=30, env={**os.environ, variable: value})
        assert result.returncode == 64, (variable, result.returncode, result.stderr)
        assert message in result.stderr, (variable, result.stderr)
        assert "listening" not in result.stdout, (variable, result.stdout)
    for flags, message in [
        (["--port", "70000"], '--port="70000" is not valid: expected a port in 0...65535'),
        (["--timeout", "soon"], '--timeout="soon" is not valid'),
    ]:
        flag = subprocess.run([binaries.app_server, *flags], capture_output=True, text=True, timeout=30)
        assert flag.returncode == 64 and message in flag.stderr, flag.stderr
    version = subprocess.run([binaries.app_server, "--version"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and version.stdout.strip(), (version.returncode, version.stdout)


def test_offline_seouls_forecast_starts_today_in_celsius_then_fahrenheit(driver, page, sites):
    driver.get(sites.offline)
    page.wait(lambda: page.text("#header") == "Composable App", "offline session")
    page.click("#tab-search")
    page.wait(lambda: page.displayed("#search-query"), "search tab shown")
    page.type("#search-query", "seo")
    page.wait(lambda: page.count("#search-results li button") > 1, "results")
    page.wait(lambda: page.text("#search-results li button") == "Seoul — South Korea", "Seoul listed first")
    seoul = lambda: datetime.datetime.now(zoneinfo.ZoneInfo("Asia/Seoul")).date().isoformat()
    before = seoul()
    page.click("#search-results li button", 0)
    page.wait(lambda: page.count("#forecast-table tr") == 8, "seven days")
    after = seoul()
    assert page.displayed("#forecast-estimate")
    assert page.text("#forecast-estimate") == "offline estimate"
    rows = page.texts("#forecast-table tr")
    assert rows[1].startswith("Today"), rows[1]
    first = page.attribute("#forecast-table time", "datetime")
    assert first in {before, after}, (first, before, after)
    assert all("°C" in row for row in rows[1:]), rows

    page.click("#tab-settings")
    page.wait(lambda: page.displayed("#setting-temperatureUnit"), "settings shown")
    page.select("#setting-temperatureUnit", "fahrenheit")
    page.click("#tab-search")
    page.wait(lambda: len(rows := page.texts("#forecast-table tr")) == 8
              and all("°F" in row for row in rows[1:]), "forecast in °F")
    assert page.displayed("#forecast-estimate")


def test_favorites_and_settings_are_kept_across_a_server_restart(driver, page, services, tmp_path):
    # Favorites and settings belong to the visitor (a long-lived cookie) and live in the
    # database: a new server process on the same file shows them to the same browser.
    database = tmp_path / "kept.sqlite"
    first = launch(services, tmp_path, "--offline", "--database", database)
    driver.get(first.url)
    page.wait(lambda: page.text("#header") == "Composable App", "a new visitor")
    name_and_favorite(page, "Grace", 3)
    heart = "#episode-list .episode .heart"
    first.stop()

    second = launch(services, tmp_path, "--offline", "--database", database)
    driver.get(second.url)
    page.wait(lambda: page.text("#header") == "Hello, Grace!", "the name is back")
    page.click("#tab-episodes")
    page.wait(lambda: page.attribute(heart, "aria-pressed", 3) == "true", "the favorite is back")
    assert page.attributes(heart, "aria-pressed") == ["false", "false", "false", "true", "false", "false"]


def test_the_page_reconnects_to_the_same_state_after_a_crash(driver, page, services, tmp_path):
    # The server is killed (SIGKILL: nothing is saved on the way out) and started again on
    # the same port and file. The page is not reloaded: its event stream reconnects, the
    # new process resumes the saved session, and everything acknowledged is there.
    database = tmp_path / "crash.sqlite"
    port = free_port()
    first = launch(services, tmp_path, "--offline", "--database", database, port=port)
    driver.get(first.url)
    counts = three_and_a_running_timer(page)
    increment = '#counter-list .counter [data-do="counter.increment"]'
    first.kill()
    # While no server answers, the page says so and takes no input.
    page.wait(lambda: page.text("#connection") == "reconnecting…", "reconnecting shown")
    page.wait(lambda: page.attribute("main", "inert") is not None, "the page takes no input")

    launch(services, tmp_path, "--offline", "--database", database, port=port)
    page.wait(lambda: page.text("#connection") == "live", "the event stream reconnected")
    page.wait(lambda: page.attribute("main", "inert") is None, "the page takes input again")
    assert "shown" not in (page.attribute("#banner", "class") or ""), page.text("#banner-text")
    assert (counts() or [None])[0] == "3", counts()
    ticked = int(counts()[1])
    page.wait(lambda: int((counts() or ["0", "0"])[1]) > ticked, "the timer runs again")
    page.click(increment, 0)
    page.wait(lambda: (counts() or [None])[0] == "4", "the session goes on: count 4")


def test_counters_outlive_an_idle_expiry_and_a_browser_restart(services, chromium, tmp_path):
    # Counters are the visitor's, like favorites and settings: a session that expires
    # while its tab is open and a timer runs comes back with them, and so does a browser
    # that restarts (it drops the cookies that have no expiry).
    url = launch(services, tmp_path, "--offline", "--idle-timeout", "1").url
    profile = tmp_path / "profile"
    browser = chromium.driver(profile)
    try:
        b = Page(browser)
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
        browser = chromium.driver(profile)
        b = Page(browser)
        counts = lambda: b.texts("#counter-list .counter .count")
        browser.get(url)
        b.wait(lambda: b.text("#connection") == "live", "the restarted browser is live")
        assert counts() == kept, (counts(), kept)
    finally:
        browser.quit()


def test_a_refused_event_stream_is_tried_again_with_pauses_until_the_page_is_live(driver, page, sites):
    # A session takes at most four event streams (other tabs, pages being reloaded whose
    # streams have not closed yet); a fifth is refused with 429. The page must then wait
    # between tries (Retry-After, else a growing, jittered pause), not ask again at once:
    # a page that retried at once sent 40-280 requests a second until a slot freed.
    def streams_asked():
        return metric(sites.offline, "app_http_request_duration_seconds_count",
                      route="/api/session/events", method="GET")
    driver.get(sites.offline)
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    cookie = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in
                       driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"])
    driver.get("about:blank")
    address = urllib.parse.urlsplit(sites.offline)
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
        driver.get(sites.offline)
        page.wait(lambda: page.text("#connection") == "reconnecting…", "the page is refused a stream")
        before, started = streams_asked(), time.monotonic()
        time.sleep(5)
        asked, elapsed = streams_asked() - before, time.monotonic() - started
        assert asked <= 6, f"{asked:.0f} event-stream requests in {elapsed:.1f} s"
    finally:
        for stream in held:
            stream.close()
    page.wait(lambda: page.text("#connection") == "live", "the page follows its session again")


def test_a_database_that_cannot_be_opened_stops_the_server_with_its_name(binaries, tmp_path):
    blocker = os.path.join(tmp_path, "a-file")
    with open(blocker, "w") as file:
        file.write("not a folder")
    result = subprocess.run(
        [binaries.app_server, "--port", "0", "--database", os.path.join(blocker, "app.sqlite")],
        capture_output=True, text=True, timeout=30)
    assert result.returncode != 0, (result.returncode, result.stderr)
    assert "could not be opened" in result.stderr and "a-file" in result.stderr, result.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
