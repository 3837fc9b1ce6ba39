"""End-to-end tests of preview-server: each feature's section of the web page served alone, in
headless Chromium, by the built binary on a port it chooses on 127.0.0.1; its command line; and
what it links.

Each test starts its own server and stops it at the end. A failed test prints the page's address
and its console, and saves a screenshot (the path is in the report).
"""

import json
import subprocess
import sys

import pytest
from selenium.webdriver.common.by import By

from support.browser import console_errors, live, page_state as state, wait


@pytest.fixture(scope="module")
def shots(tmp_path_factory, notes):
    """Where the screenshots of each feature's page go, for a person to look at."""
    folder = tmp_path_factory.mktemp("preview-server-screenshots")
    notes(f"preview-server: screenshots in {folder}")
    return folder


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def page_frame(driver, title, section):
    """The frame around one section: the preview's title, no tab bar, no other section."""
    assert driver.title == title, driver.title
    assert by_id(driver, "header").text == title
    assert driver.find_elements(By.CSS_SELECTOR, "[role=tab]") == []
    sections = driver.find_elements(By.CSS_SELECTOR, "main > section")
    assert [s.get_attribute("id") for s in sections] == [section]
    assert sections[0].is_displayed()


def run_in_browser(services, browsers, shots, feature, check, *extra):
    server = services.preview_server(feature, *extra)
    driver = browsers.new()
    console = []
    try:
        driver.get(server.url)
        live(driver)
        check(driver, server)
        errors = console_errors(driver, console)
        assert not errors, f"the page logged errors: {errors}"
    except Exception:
        shot = shots / f"{feature}-failed.png"
        driver.save_screenshot(str(shot))
        print(f"  at {driver.current_url}; screenshot {shot}")
        console_errors(driver, console)
        for entry in console[-20:]:
            print("  console:", entry["timestamp"], entry["message"])
        raise
    finally:
        driver.quit()
        server.stop()


# --- tests ------------------------------------------------------------------------------------

def test_counter_alone_counts_fetches_a_fact_and_keeps_its_state_across_a_reload(services, browsers, shots):
    def check(driver, server):
        page_frame(driver, "Counters — preview", "counters")
        assert driver.current_url == server.url + "counters", driver.current_url
        by_id(driver, "add-counter").click()
        card = lambda: driver.find_element(By.CSS_SELECTOR, "#counter-list .counter")
        wait(driver, lambda: card().find_element(By.CSS_SELECTOR, ".count").text == "0", "a counter")
        for _ in range(3):
            card().find_element(By.CSS_SELECTOR, '[data-do="counter.increment"]').click()
        wait(driver, lambda: card().find_element(By.CSS_SELECTOR, ".count").text == "3", "count 3")
        card().find_element(By.CSS_SELECTOR, '[data-do="counter.fact"]').click()
        wait(driver, lambda: card().find_element(By.CSS_SELECTOR, ".fact").text.startswith("3 "),
             "the offline fact about 3")
        driver.save_screenshot(str(shots / "counter.png"))
        driver.refresh()
        live(driver)
        wait(driver, lambda: card().find_element(By.CSS_SELECTOR, ".count").text == "3",
             "the same session after a reload")
    run_in_browser(services, browsers, shots, "counter", check)


def test_search_alone_finds_a_place_offline_and_shows_its_estimate(services, browsers, shots):
    def check(driver, server):
        page_frame(driver, "Search — preview", "search")
        by_id(driver, "search-query").send_keys("Berlin")
        result = lambda: driver.find_elements(By.CSS_SELECTOR, "#search-results button")
        wait(driver, lambda: any("Berlin" in b.text for b in result()), "Berlin among the results")
        next(b for b in result() if "Berlin" in b.text).click()
        wait(driver, lambda: by_id(driver, "forecast").is_displayed()
             and by_id(driver, "forecast-estimate").is_displayed()
             and by_id(driver, "forecast-table").text != "", "the offline estimate")
        assert by_id(driver, "forecast-title").text == "Forecast for Berlin"
        driver.save_screenshot(str(shots / "search.png"))
    run_in_browser(services, browsers, shots, "search", check)


def test_settings_alone_binds_its_form_and_resets_after_asking(services, browsers, shots):
    def check(driver, server):
        page_frame(driver, "Settings — preview", "settings")
        name = by_id(driver, "setting-displayName")
        name.clear()
        name.send_keys("Blob Jr")
        wait(driver, lambda: state(driver)["settings"]["displayName"] == "Blob Jr", "the name sent")
        by_id(driver, "setting-enableNotifications").click()
        wait(driver, lambda: by_id(driver, "setting-sendEmailNotifications").is_enabled(),
             "the channels enabled with notifications")
        by_id(driver, "reset-settings").click()
        wait(driver, lambda: by_id(driver, "reset-confirmation").is_displayed(), "the confirmation")
        by_id(driver, "reset-confirm").click()
        wait(driver, lambda: state(driver)["settings"]["displayName"] != "Blob Jr", "the reset")
        wait(driver, lambda: by_id(driver, "setting-displayName").get_attribute("value")
             == state(driver)["settings"]["displayName"], "the form showing the reset name")
        # The preview's state is the feature's alone: no greeting, no tab.
        assert "header" not in state(driver) and "selectedTab" not in state(driver)
    run_in_browser(services, browsers, shots, "settings", check)


def test_episodes_alone_favorites_and_pushes_screens_with_addresses_of_their_own(services, browsers, shots):
    def check(driver, server):
        page_frame(driver, "Episodes — preview", "episodes")
        rows = lambda: driver.find_elements(By.CSS_SELECTOR, "#episode-list .episode")
        wait(driver, lambda: len(rows()) > 1, "the episodes")
        first = rows()[0]
        title = first.find_element(By.CSS_SELECTOR, ".title").text
        first.find_element(By.CSS_SELECTOR, '[data-do="episode.favorite"]').click()
        wait(driver, lambda: rows()[0].find_element(By.CSS_SELECTOR, ".heart").text == "♥",
             "the favorite saved")
        rows()[0].find_element(By.CSS_SELECTOR, '[data-do="episode.open"]').click()
        wait(driver, lambda: by_id(driver, "episode-screen").is_displayed(), "the episode screen")
        assert by_id(driver, "screen-title").text == title
        episode_id = state(driver)["episodeScreens"][0]["id"].lower()
        wait(driver, lambda: driver.current_url == server.url + "episodes/" + episode_id,
             "the screen's address")
        driver.save_screenshot(str(shots / "episodes.png"))
        driver.back()
        wait(driver, lambda: not by_id(driver, "episode-screen").is_displayed()
             and driver.current_url == server.url + "episodes", "Back to the list")
        # A shared link to the screen opens it in a new session.
        driver.delete_all_cookies()
        driver.get(server.url + "episodes/" + episode_id)
        live(driver)
        wait(driver, lambda: by_id(driver, "episode-screen").is_displayed()
             and by_id(driver, "screen-title").text == title, "the linked screen")
    run_in_browser(services, browsers, shots, "episodes", check, "--favorite-failure-rate", "0")


def test_a_preview_serves_its_feature_and_nothing_of_the_others(services):
    expected = {
        "counter": ("counters", "counter.add"), "search": ("search", "search.query"),
        "settings": ("settings", "settings.set"), "episodes": ("episodes", "episode.open"),
    }
    for feature, (section, action) in expected.items():
        server = services.preview_server(feature)
        try:
            status, actions = server.get("/api/actions")
            types = {entry["type"] for entry in json.loads(actions)}
            assert status == 200 and action in types, (feature, types)
            assert "tab.select" not in types, f"{feature}: the app's tabs are not the preview's"
            others = {a for f, (_, a) in expected.items() if f != feature}
            assert not types & others, (feature, types & others)
            assert server.get(f"/{section}.js")[0] == 200
            for other_section, _ in (v for f, v in expected.items() if f != feature):
                assert server.get(f"/{other_section}.js")[0] == 404, (feature, other_section)
                assert server.get(f"/{other_section}")[0] == 404, (feature, other_section)
            status, page = server.get(f"/{section}")
            assert status == 200 and f'<section id="{section}"' in page
            assert server.get("/readyz")[0] == 200
        finally:
            server.stop()


def test_the_command_line_names_the_features_and_refuses_others(binaries):
    listing = subprocess.run([str(binaries.preview_server), "--help"], capture_output=True, text=True, timeout=30)
    assert listing.returncode == 0, listing
    assert "(values: counter, search, settings, episodes)" in " ".join(listing.stdout.split())
    for arguments, message in [
        (["--feature", "lamp"], "'lamp' is invalid for '--feature"),
        ([], "Missing expected argument '--feature"),
        (["--feature", "counter", "--port", "70000"], "--port must be in 0...65535"),
        (["--feature", "episodes", "--favorite-failure-rate", "2"], "between 0 and 1"),
    ]:
        result = subprocess.run([str(binaries.preview_server), *arguments], capture_output=True, text=True, timeout=30)
        assert result.returncode == 64, (arguments, result)
        assert message in result.stderr, (arguments, result.stderr)


def test_it_links_the_web_front_end_but_neither_storage_nor_the_apps_composition(binaries):
    symbols = subprocess.run(["nm", "--demangle", "--defined-only", str(binaries.preview_server)],
                             capture_output=True, text=True, check=True).stdout
    for module in ["Hummingbird", "WebFrontend", "CounterWeb", "EpisodesWeb"]:
        assert module in symbols, f"{module} is expected in preview-server"
    for module in ["GRDB", "PostgresNIO", "AppComposition", "AppFeature", "LiveStorage"]:
        assert module + "." not in symbols, f"preview-server links {module}"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
