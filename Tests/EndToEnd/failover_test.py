"""Two app-server instances behind HAProxy, sharing one PostgreSQL database.

A real browser uses the app through the balancer (cookie-sticky routing); the instance serving it
is killed with SIGKILL mid-session; the page goes on on the other instance with everything that
was acknowledged: counts, a running timer, the selected tab, settings and favorites.

Then many API visitors increment under load while PostgreSQL is stopped for a few seconds and
started again, and each instance is killed with SIGKILL in turn: readiness must go down and up
with the database, and every session must end with at least the count its visitor last saw
acknowledged. The failover gap (SIGKILL to the first 2xx of each moved session) is noted.

Then sessions move between two instances that both keep running — one taken out of rotation
while the other stays, and back; an outage after which the instances come back at different
moments — and a seeded random schedule of kills, database pauses and rotation flaps runs for a
bounded time (FAILOVER_SEED reruns one, FAILOVER_SECONDS sets its length). The checker, per
session with one increment in flight at a time: every 2xx shows a count at least one above the
previous 2xx's, every read at least the highest acknowledged, and the final count is at least
the highest acknowledged and at most what was sent.

PostgreSQL: a server of this file's own (the outage stops it), started with Tools/local-postgres.
HAProxy: Debian's `haproxy` (Tools/test-all installs it). The file's tests share one cluster;
each starts from both instances up and in rotation.
"""

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import types
import urllib.error
import urllib.request
import uuid

import pytest

from support import ROOT
from support.browser import Page, name_and_favorite, page_state
from support.order import continues
from support.postgres import database_url
from support.reporting import failed
from support.servers import free_port, metric

HAPROXY_CONFIG = """
global
    maxconn 512
    # The test takes instances out of rotation and back, as failing health checks would.
    stats socket {socket} mode 600 level admin

defaults
    mode http
    # With every instance out of rotation, the balancer's own 503 carries the app's JSON error.
    errorfile 503 {errorfile}
    timeout connect 1s
    # A busy instance may take a moment to answer its health check; that is not a failure.
    timeout check 1s
    timeout client 60s
    timeout server 60s
    # Event streams stay open as long as the page does.
    timeout tunnel 1h
    # A request whose server refuses the connection is retried at once on another one (every
    # retry redispatches), not three times on the dead one with a pause between tries.
    option redispatch 1
    retries 3
    option forwardfor

frontend web
    bind 127.0.0.1:{port}
    default_backend app

backend app
    balance roundrobin
    # Sticky: the balancer's own cookie names the instance that serves this browser.
    cookie SERVERID insert indirect nocache httponly attr "SameSite=Strict"
    # Health: /readyz answers 503 while an instance drains; the server checks the Host header.
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    default-server inter 300ms downinter 100ms fall 2 rise 2
    server a 127.0.0.1:{a} check cookie a
    server b 127.0.0.1:{b} check cookie b

listen stats
    bind 127.0.0.1:{stats}
    stats enable
    stats uri /stats
"""


def readiness(port):
    """An instance's /readyz status (0 when it does not answer)."""
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5).status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def balancer_view(stats_port):
    """HAProxy's state of each instance: {"a": "UP", "b": "DOWN"}."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{stats_port}/stats;csv", timeout=5).read()
    rows = [line.split(",") for line in text.decode().splitlines() if line.startswith("app,")]
    return {row[1]: row[17].split(" ")[0] for row in rows if row[1] in ("a", "b")}


def wait_until(condition, what, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.05)


ERRORFILE = ROOT / "Apps" / "app-server" / "deploy" / "haproxy-503.http"


class Visitor:
    """One API client with its own cookies (the app's and HAProxy's), talking through the
    balancer; it remembers the highest count any 2xx answer showed it (what it saw kept), and
    checks every answer against it: an acknowledged increment shows at least one more than the
    previous one, a read at least as much (one increment in flight at a time)."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.counter = None
        self.acknowledged = 0
        self.sent = 0
        self.answers = []  # (when, instance) of every 2xx answer
        self.violations = []
        self.history = []  # (what, status, count, instance), the last few
        self.moves = 0
        self.balancer_503s = 0

    def request(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None,
                               headers=headers)
            response = connection.getresponse()
            text = response.read()
            before = self.instance
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";")[0]
            if before is not None and self.instance != before:
                self.moves += 1
            answer = json.loads(text) if text and response.status < 300 else None
            if response.status == 503:
                # The app's and the balancer's own (no instance in rotation) alike: the app's
                # JSON error shape, which the page shows in its banner.
                error = json.loads(text)
                assert error["status"] == 503 and error["error"], text
                if error["error"].startswith("Cannot reach the server"):
                    self.balancer_503s += 1
            if answer is not None and "state" in answer:
                count = answer["state"]["counters"][0]["count"]
                acting = method == "POST" and path.endswith("/actions")
                floor = self.acknowledged + (1 if acting else 0)
                self.history = (self.history + [(path, response.status, count,
                                                 self.instance)])[-8:]
                if self.counter is not None and count < floor:
                    self.violations.append(
                        f"{method} {path} showed {count}, below {floor}: {self.history}")
                if acting:
                    self.acknowledged = max(self.acknowledged, count)
                self.answers.append((time.monotonic(), self.instance))
            return response.status, answer
        except OSError:
            return 0, None
        finally:
            connection.close()

    def start(self):
        status, answer = self.request("POST", "/api/session")
        assert status == 201, status
        self.counter = answer["state"]["counters"][0]["id"]

    def increment(self):
        self.sent += 1
        return self.request("POST", "/api/session/actions",
                            {"type": "counter.increment", "id": self.counter})

    def count(self):
        status, answer = self.request("GET", "/api/session/state")
        assert status == 200, status
        return answer["state"]["counters"][0]["count"]

    def final_check(self):
        """The promise at the end: the count is at least what was acknowledged and at most what
        was sent, and no answer on the way broke it."""
        final = self.count()
        problems = list(self.violations)
        if not self.acknowledged <= final <= self.sent:
            problems.append(f"final count {final}, acknowledged {self.acknowledged}, "
                            f"sent {self.sent}: {self.history}")
        return problems

    @property
    def instance(self):
        return self.cookies.get("SERVERID")

    def first_answer(self, after, by):
        """When the first 2xx answer from instance `by` came after `after`, if one did."""
        return next((when for when, instance in list(self.answers)
                     if when > after and instance == by), None)


class Load:
    """Visitors incrementing in threads until stopped; one that fails tries again 20 ms later."""

    def __init__(self, visitors):
        self.visitors = visitors
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.run, args=(v,), daemon=True) for v in visitors]

    def run(self, visitor):
        while not self.stopping.is_set():
            status, _ = visitor.increment()
            if status != 200:
                time.sleep(0.02)

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)


class Cluster:
    """Instances `a` and `b` of app-server over one PostgreSQL database, behind HAProxy."""

    def __init__(self, services, database, haproxy, folder):
        self.services = services
        self.database = database
        self.database_url = database.create_database("failover_" + uuid.uuid4().hex)
        self.ports = {"a": free_port(), "b": free_port()}
        self.logs = {name: folder / f"{name}.log" for name in self.ports}
        self.instances = {}
        for name in self.ports:
            self.launch(name)
        self.front = free_port()
        self.stats = free_port()
        self.haproxy = haproxy
        haproxy.start(HAPROXY_CONFIG.format(port=self.front, a=self.ports["a"], b=self.ports["b"],
                                            stats=self.stats, socket=haproxy.socket,
                                            errorfile=ERRORFILE))
        self.url = f"http://127.0.0.1:{self.front}/"
        wait_until(lambda: answers(self.url + "healthz", haproxy.process), "HAProxy answers")
        # Stale copies dropped by instances that were killed since (their metrics went with them).
        self.dropped_by_the_killed = 0

    def launch(self, name):
        """Instance `name` (again); its output goes on in its log."""
        self.instances[name] = self.services.app_server(
            "--offline", "--trusted-proxy", "127.0.0.1", "--database-url", self.database_url,
            "--log-level", "warning",
            # Every visitor of this test comes from 127.0.0.1, so the per-client limits would
            # count them all as one client.
            "--sessions-per-minute", "100000", "--actions-per-second", "100000",
            "--reads-per-second", "100000",
            port=self.ports[name], ready_path="/readyz", log=self.logs[name],
            stop_by="terminate-or-kill")

    def running(self, name):
        return self.instances[name].running

    def balancer_view(self):
        """HAProxy's state of each instance: {"a": "UP", "b": "DOWN"}."""
        return balancer_view(self.stats)

    def both_instances_up(self):
        for name in self.ports:
            if not self.running(name):
                self.launch(name)
        wait_until(lambda: self.balancer_view() == {"a": "UP", "b": "UP"},
                   "HAProxy sees both instances up")

    def admin(self, command):
        """A command to HAProxy's runtime API."""
        return self.haproxy.admin(command)

    def out_of_rotation(self, name):
        """The balancer stops sending requests to `name`, which keeps running — as when its
        health checks fail: its visitors' next requests go to the other instance."""
        self.admin(f"set server app/{name} state maint")
        wait_until(lambda: self.balancer_view()[name] == "MAINT", f"{name} out of rotation")

    def into_rotation(self, name):
        self.admin(f"set server app/{name} state ready")
        wait_until(lambda: self.balancer_view()[name] == "UP", f"{name} back in rotation")

    def stale_copies_dropped(self):
        """Stale copies dropped so far, on the instances that live and those killed."""
        return self.dropped_by_the_killed + sum(
            metric(f"http://127.0.0.1:{port}/", "app_sessions_superseded_total")
            for name, port in self.ports.items() if self.running(name))

    def kill(self, name):
        """SIGKILL, counting the stale copies the instance had dropped."""
        self.dropped_by_the_killed += metric(f"http://127.0.0.1:{self.ports[name]}/",
                                             "app_sessions_superseded_total")
        self.instances[name].kill()

    def kill_under_load(self, victim, visitors):
        """SIGKILL `victim`; returns each moved visitor's gap from the kill to its first 2xx
        answered by the other instance."""
        survivor = "b" if victim == "a" else "a"
        moved = [v for v in visitors if v.instance == victim]
        assert moved, "no visitor on the instance to kill"
        killed = time.monotonic()
        self.instances[victim].kill()
        wait_until(lambda: all(v.first_answer(killed, survivor) for v in moved),
                   f"every session of {victim} answered by {survivor}", seconds=30)
        return [v.first_answer(killed, survivor) - killed for v in moved]


def answers(url, process):
    """Whether `url` answers; fails when `process` (what should answer it) has exited."""
    assert process.poll() is None, f"exited with {process.returncode}"
    try:
        urllib.request.urlopen(url, timeout=1).read()
        return True
    except OSError:
        return False


def gaps_figure(gaps):
    return (f"{len(gaps)} moved sessions, median {statistics.median(gaps) * 1000:.0f} ms, "
            f"max {max(gaps) * 1000:.0f} ms")


def run_visitors(cluster, notes, count, schedule, what):
    """`count` visitors under load while `schedule` runs; then the checker's verdict."""
    cluster.both_instances_up()
    visitors = [Visitor(cluster.front) for _ in range(count)]
    for visitor in visitors:
        visitor.start()
    dropped_before = cluster.stale_copies_dropped()
    with Load(visitors):
        time.sleep(0.5)
        extra = schedule(visitors) or []
        for name in cluster.ports:
            if not cluster.running(name):
                cluster.launch(name)
            if cluster.balancer_view()[name] == "MAINT":
                cluster.into_rotation(name)
        cluster.both_instances_up()
        # Some ordinary traffic after the faults, on whichever copy now serves.
        time.sleep(1)
    problems = [problem for visitor in visitors for problem in visitor.final_check()]
    acknowledged = sum(v.acknowledged for v in visitors)
    figures = [f"{what}: {sum(v.moves for v in visitors)} moves of a session between "
               f"instances, {cluster.stale_copies_dropped() - dropped_before:.0f} stale copies "
               f"dropped, {acknowledged} acknowledged increments, {len(problems)} "
               f"broken promises, {sum(v.balancer_503s for v in visitors)} balancer "
               f"503s (JSON)"] + extra
    for line in figures:
        notes("failover: " + line)
    assert not problems, "\n".join(problems[:10])


@pytest.fixture(scope="module")
def cluster(module_services, pausable_postgres, haproxy, tmp_path_factory):
    return Cluster(module_services, pausable_postgres, haproxy, tmp_path_factory.mktemp("failover"))


@pytest.fixture(scope="module")
def driver(chromium):
    browser = chromium.driver()
    yield browser
    browser.quit()


@pytest.fixture(scope="module")
def browser(driver):
    """The page of the file's browser visitor, and the ways the tests read it."""
    page = Page(driver)
    return types.SimpleNamespace(
        driver=driver, page=page,
        counts=lambda: page.texts("#counter-list .counter .count") or [],
        increment=lambda: page.click('#counter-list .counter [data-do="counter.increment"]', 0),
        serving=lambda: (driver.get_cookie("SERVERID") or {}).get("value"),
        state=lambda: page_state(driver))


@pytest.fixture(autouse=True)
def page_described_on_failure(request):
    """After a failed test that used the browser: what its page showed."""
    yield
    if "browser" in request.fixturenames and failed(request.node):
        print(request.getfixturevalue("browser").page.describe(), flush=True)


def test_a_bad_database_url_stops_startup_with_the_reason(binaries, postgres):
    closed = free_port()
    unknown = database_url(postgres, "no_such_database")
    cases = [
        ("mysql://app@127.0.0.1/app", 'the scheme is "mysql", not postgres'),
        ("postgres://app@127.0.0.1/app?sslmod=disable", '"sslmod" is not supported'),
        (f"postgres://app:s3cret@127.0.0.1:{closed}/app?sslmode=disable", "could not be opened"),
        (unknown, 'database "no_such_database" does not exist'),
    ]
    for url, reason in cases:
        result = subprocess.run([binaries.app_server, "--port", "0"], capture_output=True, text=True,
                                timeout=60, env={**os.environ, "DATABASE_URL": url})
        assert result.returncode != 0, (url, result.returncode, result.stderr)
        assert reason in result.stderr, (url, result.stderr)
        assert "s3cret" not in result.stderr, result.stderr
        assert "listening" not in result.stdout, result.stdout


# A visitor in a browser, through the balancer.


def test_a_visitor_uses_the_app_through_haproxy(cluster, browser):
    driver, page, counts, increment = browser.driver, browser.page, browser.counts, browser.increment
    serving, state = browser.serving, browser.state
    driver.get(cluster.url)
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    assert serving() in ("a", "b"), driver.get_cookies()
    for expected in ("1", "2", "3"):
        increment()
        page.wait(lambda: counts()[:1] == [expected], f"count {expected}")
    page.click("#add-counter")
    page.wait(lambda: len(counts()) == 2, "two counters")
    page.click('#counter-list .counter [data-do="counter.timer"]', 1)
    page.wait(lambda: int(counts()[1]) >= 1, "the second counter's timer ticks")
    name_and_favorite(page, "Ada", 1)
    page.click("#tab-counters")
    page.wait(lambda: state()["selectedTab"] == "counters", "tab acknowledged")


@continues(test_a_visitor_uses_the_app_through_haproxy)
def test_the_visitor_goes_on_on_the_other_instance_after_a_sigkill_with_nothing_lost(
        cluster, browser):
    page, counts, increment = browser.page, browser.counts, browser.increment
    serving, state = browser.serving, browser.state
    victim = serving()
    survivor = "b" if victim == "a" else "a"
    ticked = int(counts()[1])
    cluster.instances[victim].kill()
    # The page's event stream reconnects through the balancer to the other instance,
    # which resumes the session from the database; meanwhile the page takes no input
    # ("reconnecting…"). The next action then reaches the survivor.
    page.wait(lambda: page.text("#connection") == "reconnecting…", "the page saw the stream end")
    page.wait(lambda: page.text("#connection") == "live", "the event stream reconnected")
    increment()
    page.wait(lambda: counts()[:1] == ["4"], "count 4: nothing acknowledged was lost")
    page.wait(lambda: serving() == survivor, f"served by {survivor} now")
    page.wait(lambda: page.text("#connection") == "live", "the event stream reconnected")
    page.wait(lambda: int(counts()[1]) > ticked, "the timer runs again, pushed to the page")
    assert page.text("#header") == "Hello, Ada!", page.text("#header")
    now = state()
    assert [counter["count"] for counter in now["counters"]][:1] == [4], now["counters"]
    assert now["counters"][1]["isTimerOn"] is True, now["counters"]
    assert now["episodes"][1]["isFavorite"] is True
    assert now["settings"]["displayName"] == "Ada", now["settings"]


@continues(test_the_visitor_goes_on_on_the_other_instance_after_a_sigkill_with_nothing_lost)
def test_a_reload_on_the_surviving_instance_shows_the_same_session(browser):
    driver, page, counts = browser.driver, browser.page, browser.counts
    driver.refresh()
    page.wait(lambda: page.text("#connection") == "live", "event stream open")
    page.wait(lambda: counts()[:1] == ["4"], "still count 4")
    assert len(counts()) == 2, counts()


# Many visitors through the API.


def test_a_postgresql_outage_under_load_then_two_sigkills_lose_nothing_acknowledged(cluster, notes):
    cluster.both_instances_up()
    visitors = [Visitor(cluster.front) for _ in range(40)]
    for visitor in visitors:
        visitor.start()
    assert {v.instance for v in visitors} == {"a", "b"}, [v.instance for v in visitors]
    busy, quiet = visitors[:24], visitors[24:]
    figures = []
    with Load(busy):
        for visitor in quiet:
            for _ in range(3):
                assert visitor.increment()[0] == 200
        time.sleep(1)

        # The outage: a few seconds without PostgreSQL, under load. The quiet visitors
        # each change their session once more meanwhile (refused as "not saved", or by
        # HAProxy once no instance is ready), then do nothing.
        stopped = time.monotonic()
        cluster.database.pause()
        during = [threading.Thread(target=v.increment) for v in quiet]
        for thread in during:
            thread.start()
        wait_until(lambda: readiness(cluster.ports["a"]) == 503
                   and readiness(cluster.ports["b"]) == 503,
                   "both instances not ready during the outage", seconds=15)
        not_ready = time.monotonic() - stopped
        wait_until(lambda: cluster.balancer_view() == {"a": "DOWN", "b": "DOWN"},
                   "HAProxy took both instances out", seconds=15)
        time.sleep(max(0.0, 5 - (time.monotonic() - stopped)))
        started = time.monotonic()
        cluster.database.resume()
        for thread in during:
            thread.join(timeout=30)
        wait_until(lambda: readiness(cluster.ports["a"]) == 200
                   and readiness(cluster.ports["b"]) == 200,
                   "both instances ready again", seconds=30)
        ready = time.monotonic() - started
        cluster.both_instances_up()
        bases = [f"http://127.0.0.1:{port}/" for port in cluster.ports.values()]
        # Under load some state is always on its way; what matters is that none has
        # waited since the outage.
        wait_until(lambda: all(metric(base, "app_session_oldest_unsaved_seconds") < 1
                               for base in bases),
                   "the states of the outage saved once the database is back", seconds=30)
        failed = sum(metric(base, "app_session_saves_failed_total") for base in bases)
        retried = sum(metric(base, "app_session_saves_retried_total") for base in bases)
        assert failed > 0 and retried > 0, (failed, retried)
        figures.append(f"outage: not ready {not_ready:.1f} s after PostgreSQL stopped, "
                       f"ready {ready:.1f} s after it started; {failed:.0f} failed saves, "
                       f"{retried:.0f} retried")

        # What the quiet sessions show now is what a SIGKILL must not take back.
        seen = {id(v): v.count() for v in quiet}
        # The first kill hits the instance that serves most busy visitors (where HAProxy
        # put them after the outage), the second the other one.
        first = max("ab", key=lambda name: sum(v.instance == name for v in busy))
        gaps = cluster.kill_under_load(first, busy)
        figures.append("failover after the first SIGKILL: " + gaps_figure(gaps))
        for visitor in quiet:
            assert visitor.count() == seen[id(visitor)], (visitor.count(), seen[id(visitor)])
        cluster.both_instances_up()
        gaps = cluster.kill_under_load("b" if first == "a" else "a", busy)
        figures.append("failover after the second SIGKILL: " + gaps_figure(gaps))
    lost = 0
    for visitor in visitors:
        acknowledged = visitor.acknowledged
        final = visitor.count()
        assert final <= visitor.sent, (final, visitor.sent)
        lost += max(0, acknowledged - final)
    acknowledged = sum(v.acknowledged for v in visitors)
    figures.append(f"{acknowledged} acknowledged increments in {len(visitors)} sessions, "
                   f"{lost} lost")
    for line in figures:
        notes("failover: " + line)
    assert lost == 0, lost
    problems = [problem for visitor in visitors for problem in visitor.violations]
    assert not problems, "\n".join(problems[:10])


def test_sessions_moved_between_live_instances_and_back_meet_no_stale_copy_that_acknowledges(
        cluster, notes):
    def schedule(visitors):
        for _ in range(3):
            for name in ("a", "b"):
                # Every session goes to the other instance, then, once that one is taken
                # out in turn, back to this one — whose old copies still run.
                cluster.out_of_rotation(name)
                time.sleep(1)
                cluster.into_rotation(name)
                time.sleep(0.3)
    run_visitors(cluster, notes, 16, schedule, "moves between live instances")


def test_an_outage_after_which_the_instances_come_back_at_different_moments(cluster, notes):
    def schedule(visitors):
        cluster.database.pause()
        wait_until(lambda: cluster.balancer_view() == {"a": "DOWN", "b": "DOWN"},
                   "HAProxy took both instances out", seconds=15)
        # a comes back later than b: b takes every session, then a takes them back.
        cluster.out_of_rotation("a")
        time.sleep(2)
        cluster.database.resume()
        wait_until(lambda: cluster.balancer_view()["b"] == "UP", "b up again", seconds=30)
        time.sleep(1.5)
        cluster.into_rotation("a")
        cluster.out_of_rotation("b")
        time.sleep(1.5)
        cluster.into_rotation("b")
    run_visitors(cluster, notes, 16, schedule, "outage, instances back at different moments")


def test_a_sigkill_while_the_surviving_instance_re_enters_rotation_after_an_outage(cluster, notes):
    def schedule(visitors):
        # After an outage the instances come back one after the other: b is back and
        # serves every session, a is only now re-entering rotation (its checks have to
        # pass again) when b is killed.
        cluster.database.pause()
        wait_until(lambda: cluster.balancer_view() == {"a": "DOWN", "b": "DOWN"},
                   "HAProxy took both instances out", seconds=15)
        cluster.out_of_rotation("a")
        time.sleep(1)
        cluster.database.resume()
        wait_until(lambda: cluster.balancer_view()["b"] == "UP", "b back", seconds=30)
        time.sleep(1)
        cluster.admin("set server app/a state ready")
        killed = time.monotonic()
        cluster.kill("b")
        wait_until(lambda: all(v.first_answer(killed, "a") for v in visitors),
                   "every session answered by a", seconds=30)
        gaps = [v.first_answer(killed, "a") - killed for v in visitors]
        return ["  from the SIGKILL of b to each session's first 2xx on a (re-entering "
                "rotation then): " + gaps_figure(gaps)]
    run_visitors(cluster, notes, 16, schedule, "a kill while the survivor re-enters rotation")


def test_a_seeded_random_schedule_of_kills_database_pauses_and_rotation_flaps(cluster, notes):
    seed = int(os.environ.get("FAILOVER_SEED") or random.randrange(1 << 32))
    seconds = float(os.environ.get("FAILOVER_SECONDS") or 40)
    notes(f"failover: random schedule: seed {seed} (FAILOVER_SEED={seed} reruns it), "
          f"{seconds:.0f} s")
    chance = random.Random(seed)

    def schedule(visitors):
        kills = []
        events = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            fault = chance.choice(["kill", "pause", "flap", "flap", "rest"])
            if fault == "kill":
                victim = chance.choice("ab")
                moved = [v for v in visitors if v.instance == victim]
                other = "b" if victim == "a" else "a"
                # A failover only when the other instance is in rotation and running.
                failover = (cluster.balancer_view()[other] == "UP"
                            and cluster.running(other))
                killed = time.monotonic()
                cluster.kill(victim)
                if failover:
                    kills.append((killed, moved))
                time.sleep(chance.uniform(0.2, 2))
                cluster.launch(victim)
                events.append(f"kill {victim}" + ("" if failover else f" ({other} out)"))
            elif fault == "pause":
                pause = chance.uniform(1, 4)
                cluster.database.pause()
                time.sleep(pause)
                cluster.database.resume()
                events.append(f"pause {pause:.1f} s")
            elif fault == "flap":
                name = chance.choice("ab")
                out = chance.uniform(0.3, 2)
                cluster.out_of_rotation(name)
                time.sleep(out)
                cluster.into_rotation(name)
                events.append(f"flap {name} {out:.1f} s")
            else:
                time.sleep(chance.uniform(0.3, 1.5))
        gaps = []
        for killed, moved in kills:
            for visitor in moved:
                after = next((when for when, _ in list(visitor.answers) if when > killed),
                             None)
                if after is not None:
                    gaps.append(after - killed)
        extra = ["random schedule: " + ", ".join(events)]
        if gaps:
            extra.append("  after each SIGKILL with the other instance in rotation, from "
                         "the kill to a moved session's next 2xx: " + gaps_figure(gaps))
        return extra
    run_visitors(cluster, notes, 16, schedule, f"random schedule (seed {seed})")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
