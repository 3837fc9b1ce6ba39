"""Fixtures of the end-to-end tests: each starts a real service on 127.0.0.1 (or finds a real
program) and stops what it started at the end of its scope. The code behind them is in
`support/`; docs/testing.md says how to run the tests and which variables they read."""

import os
import re
import signal

import pytest

from support import order, servers
from support.binaries import Binaries
from support.browser import Chromium
from support.haproxy import HAProxy
from support.postgres import LocalPostgres
from support.prerequisites import require_program
from support.reporting import REPORTS, Notes
from support.terminal import Tmux
from support.upstreams import Upstream, WeatherAnswers, WebAnswers

NOTES = pytest.StashKey[Notes]()


def interrupted(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config):
    # SIGTERM ends the run as Ctrl-C does, so that the fixtures still stop what they started
    # (servers, PostgreSQL, HAProxy, tmux) instead of leaving it running on the machine.
    signal.signal(signal.SIGTERM, interrupted)
    config.stash[NOTES] = Notes()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    item.stash.setdefault(REPORTS, {})[report.when] = report
    order.record(item, report)
    if report.failed and report.when in ("setup", "call"):
        shown = set()
        for server in servers.RUNNING:
            tail = server.log_tail()
            if tail and server.log not in shown:
                shown.add(server.log)
                report.sections.append((f"{server.name} log, the end ({server.log})", tail))
    return report


@pytest.fixture(autouse=True)
def continued(request):
    """Runs the tests a test continues from first when they have not run (support/order.py)."""
    order.reach(request)


def pytest_collection_modifyitems(config, items):
    # BROWSER_CHECKS=text keeps only the browser checks whose name holds `text` (words apart,
    # as in "search shows results"), as the script did before `-k` could do the same.
    only = os.environ.get("BROWSER_CHECKS")
    if not only:
        return
    kept, dropped = [], []
    for item in items:
        name = item.name.removeprefix("test_").replace("_", " ")
        browser_check = item.path.name == "web_browser_test.py"
        (dropped if browser_check and only not in name else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter, config):
    lines = config.stash[NOTES].lines
    if lines:
        terminalreporter.section("notes")
        for line in lines:
            terminalreporter.line(line)


@pytest.fixture(scope="session")
def notes(pytestconfig):
    """`notes(line)`: a line worth reading after a run that passed too (support/reporting.py)."""
    return pytestconfig.stash[NOTES]


@pytest.fixture(scope="session", autouse=True)
def data_home(tmp_path_factory):
    """The folder every executable of the run keeps its data in, never the user's: XDG_DATA_HOME
    points there for every process the tests start, the tmux server included."""
    folder = tmp_path_factory.mktemp("data-home")
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before


@pytest.fixture(scope="session")
def binaries():
    """The executables under test: APP_BIN_DIR's, else .build/debug's, built when missing."""
    return Binaries()


@pytest.fixture(scope="session")
def upstream():
    """The base URL of the fixture upstream of Tests/WeatherClientLiveTests (Open-Meteo, number
    trivia, random numbers)."""
    with Upstream(WeatherAnswers) as url:
        yield url


@pytest.fixture(scope="session")
def web_upstream():
    """The base URL of the fixture upstream of Tests/WebFrontendTests (Open-Meteo, number
    trivia)."""
    with Upstream(WebAnswers) as url:
        yield url


@pytest.fixture(scope="session")
def tmux(data_home):
    """This run's own tmux server; ended (it alone) at the end of the run."""
    require_program("tmux", "tmux", "the terminal tests run the executables in it")
    server = Tmux()
    yield server
    server.stop()


@pytest.fixture
def pane(tmux, request):
    """A tmux session named after the test; ended when the test ends."""
    pane = tmux.pane(re.sub(r"[^A-Za-z0-9_-]", "-", request.node.name)[:80])
    yield pane
    pane.kill()


@pytest.fixture(scope="session")
def chromium():
    """Starts headless Chromium browsers: `chromium.driver()`."""
    return Chromium()


class Browsers:
    """The browsers one test starts: `browsers.new()`; each quits when the test ends."""

    def __init__(self, chromium):
        self.chromium = chromium
        self.drivers = []

    def new(self, profile=None):
        driver = self.chromium.driver(profile)
        self.drivers.append(driver)
        return driver

    def quit(self):
        for driver in self.drivers:
            try:
                driver.quit()
            except Exception:  # noqa: BLE001 - a browser the test quit itself is gone already
                pass


@pytest.fixture
def browsers(chromium):
    started = Browsers(chromium)
    yield started
    started.quit()


@pytest.fixture
def services(binaries, tmp_path_factory):
    """Starts servers for one test (`services.app_server(…)`, `services.preview_server(…)`);
    stops them when it ends (support/servers.py)."""
    started = servers.Services(binaries, tmp_path_factory.mktemp("servers"))
    yield started
    started.finish()


@pytest.fixture(scope="module")
def module_services(binaries, tmp_path_factory):
    """Starts servers that the tests of one file share; stops them after its last test."""
    started = servers.Services(binaries, tmp_path_factory.mktemp("servers"))
    yield started
    started.finish()


@pytest.fixture(scope="session")
def postgres():
    """The URL of a PostgreSQL server the tests may create databases on but never stop:
    TEST_DATABASE_URL when it is set (Tools/test-all starts one server for the whole run),
    else a server started here for this run."""
    given = os.environ.get("TEST_DATABASE_URL")
    if given:
        yield given
        return
    server = LocalPostgres()
    url = server.start()
    yield url
    server.stop()


@pytest.fixture(scope="module")
def pausable_postgres():
    """A PostgreSQL server of one test file's own, which its tests stop for a while and start
    again (an outage): never the shared one."""
    server = LocalPostgres()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def haproxy(tmp_path_factory):
    """An HAProxy for one test file, started by it with its configuration; stopped after its
    last test."""
    balancer = HAProxy(tmp_path_factory.mktemp("haproxy"))
    yield balancer
    balancer.stop()
