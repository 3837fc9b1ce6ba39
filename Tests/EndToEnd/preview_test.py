"""End-to-end tests of the feature previews: each built binary run in a real pseudo-terminal
through tmux, its screen read back, its keys pressed; its command line; and what it links (none of
the server's or the storage's libraries, which the app's executables do link). The previews' own
package (Apps/Previews) is built too (marked `builds`: minutes on 2 cores), and must declare
what the root package declares."""

import json
import pathlib
import subprocess
import sys

import pytest

from support import ROOT

# Every `<name>-preview` folder is a preview: both manifests declare one for each (a new
# feature's preview is checked here without naming it).
PREVIEWS = sorted(path.name for path in (ROOT / "Apps" / "Previews").glob("*-preview"))
# Module names as they appear in the symbols of a binary that links them.
SERVER_AND_STORAGE = ["Hummingbird", "NIOPosix", "NIOCore", "PostgresNIO", "GRDB"]


def quit_and_wait(pane):
    pane.keys("q")
    assert pane.wait_for_exit(), "the preview did not exit on q"


def one_screen_frame(shown, title):
    """The app's frame around the feature's screen: the header, one tab, no tab keys."""
    assert f"{title} · preview" in shown, shown
    assert f"[{title}]" in shown, shown
    assert "Tab screens" not in shown and "q quit" in shown, shown


# --- tests ------------------------------------------------------------------------------------

def test_counter_preview_counts_fetches_a_fact_and_removes_after_asking(binaries, pane):
    pane.start(str(binaries.path("counter-preview")))
    shown = pane.wait_for("Counter 1   count: 0")
    one_screen_frame(shown, "Counters")
    pane.keys("+", "+", "+", "-")
    pane.wait_for("count: 2")
    pane.keys("f")
    pane.wait_for("fact: 2 ")
    # Number keys belong to the screen here: no tab to switch to, nothing changes.
    pane.keys("2")
    pane.keys("a")
    pane.wait_for("Counter 2   count: 0")
    pane.keys("x")
    pane.wait_for("Remove Counter 2?")
    pane.keys("y")
    pane.wait_until_gone("Counter 2")
    quit_and_wait(pane)


def test_search_preview_finds_seoul_and_shows_an_offline_forecast(binaries, pane):
    pane.start(str(binaries.path("search-preview")))
    shown = pane.wait_for("(press / to type a city)")
    one_screen_frame(shown, "Search")
    assert "Offline: places from GeoNames" in shown, shown
    pane.keys("/")
    for character in "Seoul":
        pane.keys(character)
    pane.keys("Enter")
    found = pane.wait_for("Seoul, South Korea")
    pane.keys("Enter")
    forecast = pane.wait_for("Forecast for Seoul")
    assert "(offline estimate)" in forecast and "Today" in forecast, forecast
    quit_and_wait(pane)


def test_settings_preview_edits_the_name_and_the_unit(binaries, pane):
    pane.start(str(binaries.path("settings-preview")))
    shown = pane.wait_for("Display name")
    one_screen_frame(shown, "Settings")
    pane.keys("Enter")
    for character in "Ada":
        pane.keys(character)
    pane.keys("Enter")
    pane.wait_for("Display name       Ada")
    for _ in range(7):
        pane.keys("Down")
    pane.keys("Enter")
    pane.wait_for("Temperature unit   ‹ °F ›")
    quit_and_wait(pane)


def test_episodes_preview_opens_an_episode_and_favorites_it(binaries, pane):
    pane.start(str(binaries.path("episodes-preview")))
    shown = pane.wait_for("♡ Functions")
    one_screen_frame(shown, "Episodes")
    pane.keys("o")
    pane.wait_for("Episodes › Functions")
    pane.keys("Escape")
    pane.wait_until_gone("Episodes › Functions")
    # Favoriting is optimistic: the heart fills at once (the simulated service may refuse it a
    # second later and roll it back, with an alert).
    pane.keys("Enter")
    pane.wait_for("♥ Functions")
    pane.keys("Enter")  # dismisses the alert if the service refused; else unfavorites
    quit_and_wait(pane)


def test_without_a_terminal_the_first_screen_is_printed(binaries):
    for preview, line in [("counter-preview", "Counter 1   count: 0"),
                          ("search-preview", "Search: (press / to type a city)"),
                          ("settings-preview", "Display name"),
                          ("episodes-preview", "Functions")]:
        result = subprocess.run([str(binaries.path(preview))], capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL)
        assert result.returncode == 1, (preview, result)
        assert line in result.stdout and "\x1b" not in result.stdout, (preview, result.stdout)
        assert result.stderr == f"{preview}: a preview needs a terminal\n", (preview, result.stderr)


def test_help_and_a_bad_argument(binaries):
    result = subprocess.run([str(binaries.path("counter-preview")), "--help"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result
    assert result.stdout.startswith("OVERVIEW: Counters on its own"), result.stdout
    result = subprocess.run([str(binaries.path("counter-preview")), "--port"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 64, result
    assert result.stderr == "counter-preview: unknown argument '--port' (try --help)\n", result
    # --offline, which every other executable takes, is accepted: a preview is always offline.
    result = subprocess.run([str(binaries.path("counter-preview")), "--offline"], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result
    assert result.stderr == "counter-preview: a preview needs a terminal\n", result


def linked_modules(binary):
    symbols = subprocess.run(["nm", str(binary)], capture_output=True, text=True, check=True).stdout
    return {module for module in SERVER_AND_STORAGE if module in symbols}


def test_previews_link_neither_the_server_nor_the_storage(binaries):
    # The check can fail: the server links every one of them.
    assert linked_modules(binaries.app_server) == set(SERVER_AND_STORAGE)
    for preview in PREVIEWS:
        binary = binaries.path(preview)
        assert linked_modules(binary) == set(), (preview, linked_modules(binary))


def declared_previews(package_path):
    """Each terminal preview the manifest at `package_path` declares: {name: (path, {module})}."""
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", str(package_path), "dump-package"],
        capture_output=True, text=True, check=True).stdout)
    previews = {}
    for target in manifest["targets"]:
        if target["name"] not in PREVIEWS:
            continue
        modules = set()
        for dependency in target["dependencies"]:
            (kind, value), = dependency.items()
            modules.add(value[0])  # byName: [name, condition]; product: [name, package, …]
        path = (pathlib.Path(package_path) / target["path"]).resolve()
        previews[target["name"]] = (path, modules)
    return previews


def test_the_previews_package_declares_what_the_root_package_declares():
    root = declared_previews(ROOT)
    own = declared_previews(ROOT / "Apps" / "Previews")
    assert set(root) == set(PREVIEWS) and len(PREVIEWS) >= 4, (root, PREVIEWS)
    assert own == root, f"Apps/Previews/Package.swift differs from Package.swift:\n{own}\n{root}"


@pytest.mark.builds
def test_the_previews_package_builds_them_without_the_server_or_the_storage():
    package = ROOT / "Apps" / "Previews"
    build = subprocess.run(["swift", "build", "--package-path", str(package)],
                           capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    # Its graph holds none of the server's or the storage's packages: they are never checked out.
    checkouts = {path.name for path in (package / ".build" / "checkouts").iterdir()}
    for server_or_storage in ["hummingbird", "swift-nio", "postgres-nio", "GRDB.swift"]:
        assert server_or_storage not in checkouts, checkouts
    binary = package / ".build" / "debug" / "counter-preview"
    result = subprocess.run([str(binary)], capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert "Counter 1   count: 0" in result.stdout, result
    assert linked_modules(binary) == set(), linked_modules(binary)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
