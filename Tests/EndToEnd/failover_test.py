#!/usr/bin/env python3
"""Two app-server instances behind HAProxy, sharing one PostgreSQL database.

A real browser uses the app through the balancer (cookie-sticky routing); the instance serving it
is killed with SIGKILL mid-session; the page goes on on the other instance with everything that
was acknowledged: counts, a running timer, the selected tab, settings and favorites.

Then many API visitors increment under load while PostgreSQL is stopped for a few seconds and
started again, and each instance is killed with SIGKILL in turn: readiness must go down and up
with the database, and every session must end with at least the count its visitor last saw
acknowledged. The failover gap (SIGKILL to the first 2xx of each moved session) is printed.

Then sessions move between two instances that both keep running — one taken out of rotation
while the other stays, and back; an outage after which the instances come back at different
moments — and a seeded random schedule of kills, database pauses and rotation flaps runs for a
bounded time (FAILOVER_SEED reruns one, FAILOVER_SECONDS sets its length). The checker, per
session with one increment in flight at a time: every 2xx shows a count at least one above the
previous 2xx's, every read at least the highest acknowledged, and the final count is at least
the highest acknowledged and at most what was sent.

PostgreSQL: a throwaway server started here with Tools/local-postgres (the outage stops it).
HAProxy: Debian's `haproxy` (Tools/test-all installs it). Everything started here is stopped at
the end.

    python3 Tests/EndToEnd/failover_test.py
"""

import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_browser_test import (  # noqa: E402
    ROOT, Checks, binary, free_port, make_driver, metric, name_and_favorite, page_state)

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


def wait_for(url, process, what):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited early:\n{process.stdout.read()}")
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not start")


def local_postgres(*arguments):
    return subprocess.run([os.path.join(ROOT, "Tools", "local-postgres"), *arguments],
                          check=True, capture_output=True, text=True).stdout.strip()


class Database:
    """A PostgreSQL server of this test's own (the outage stops it), with one database."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="failover-postgres-")
        admin = local_postgres("start", self.folder)
        self.admin = admin
        self.name = "failover_" + uuid.uuid4().hex
        self.psql(f"CREATE DATABASE {self.name}")
        base, _, query = admin.partition("?")
        self.url = base.rsplit("/", 1)[0] + "/" + self.name + ("?" + query if query else "")

    def psql(self, sql):
        subprocess.run(["psql", self.admin.split("?")[0], "-v", "ON_ERROR_STOP=1", "-qc", sql],
                       check=True, capture_output=True, text=True)

    def stop_for_a_while(self):
        """Stops the server (fast shutdown: every connection is cut); `start_again` restarts it."""
        local_postgres("pause", self.folder)

    def start_again(self):
        local_postgres("resume", self.folder)

    def close(self):
        subprocess.run([os.path.join(ROOT, "Tools", "local-postgres"), "stop", self.folder])


def launch_instance(database_url, port, log):
    """An instance; its output goes to a file (a pipe nobody reads would stop it once full)."""
    process = subprocess.Popen(
        [binary(), "--offline", "--host", "127.0.0.1", "--port", str(port),
         "--trusted-proxy", "127.0.0.1", "--database-url", database_url, "--log-level", "warning",
         # Every visitor of this test comes from 127.0.0.1, so the per-client limits would
         # count them all as one client.
         "--sessions-per-minute", "100000", "--actions-per-second", "100000",
         "--reads-per-second", "100000"],
        stdout=open(log, "a"), stderr=subprocess.STDOUT, text=True)
    wait_for(f"http://127.0.0.1:{port}/readyz", process, f"app-server on {port}")
    return process


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


ERRORFILE = os.path.join(ROOT, "Apps", "app-server", "deploy", "haproxy-503.http")


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


def main():
    processes = {}
    haproxy = None
    driver = None
    database = None
    folder = tempfile.mkdtemp(prefix="failover-")
    checks = Checks(None)
    try:
        if not shutil.which("haproxy"):
            raise RuntimeError("haproxy is not installed (Tools/test-all installs it)")
        database = Database()
        ports = {"a": free_port(), "b": free_port()}
        logs = {name: os.path.join(folder, f"{name}.log") for name in ports}
        for name, port in ports.items():
            processes[name] = launch_instance(database.url, port, logs[name])
        front = free_port()
        stats = free_port()
        config = os.path.join(folder, "haproxy.cfg")
        admin_socket = os.path.join(folder, "haproxy.sock")
        with open(config, "w") as file:
            file.write(HAPROXY_CONFIG.format(port=front, a=ports["a"], b=ports["b"], stats=stats,
                                             socket=admin_socket, errorfile=ERRORFILE))
        haproxy = subprocess.Popen(["haproxy", "-db", "-f", config],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        url = f"http://127.0.0.1:{front}/"
        wait_for(url + "healthz", haproxy, "haproxy")

        driver = make_driver()
        checks = Checks(driver)
        c = checks
        counts = lambda: c.texts("#counter-list .counter .count") or []
        increment = lambda: c.click('#counter-list .counter [data-do="counter.increment"]', 0)
        serving = lambda: (driver.get_cookie("SERVERID") or {}).get("value")

        state = lambda: page_state(driver)

        def a_visitor_uses_the_app_through_the_balancer():
            driver.get(url)
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            assert serving() in ("a", "b"), driver.get_cookies()
            for expected in ("1", "2", "3"):
                increment()
                c.wait(lambda: counts()[:1] == [expected], f"count {expected}")
            c.click("#add-counter")
            c.wait(lambda: len(counts()) == 2, "two counters")
            c.click('#counter-list .counter [data-do="counter.timer"]', 1)
            c.wait(lambda: int(counts()[1]) >= 1, "the second counter's timer ticks")
            name_and_favorite(c, "Ada", 1)
            c.click("#tab-counters")
            c.wait(lambda: state()["selectedTab"] == "counters", "tab acknowledged")

        def the_serving_instance_is_killed_and_the_other_goes_on():
            victim = serving()
            survivor = "b" if victim == "a" else "a"
            ticked = int(counts()[1])
            processes[victim].send_signal(signal.SIGKILL)
            processes[victim].wait(timeout=10)
            # The page's event stream reconnects through the balancer to the other instance,
            # which resumes the session from the database; meanwhile the page takes no input
            # ("reconnecting…"). The next action then reaches the survivor.
            c.wait(lambda: c.text("#connection") == "reconnecting…", "the page saw the stream end")
            c.wait(lambda: c.text("#connection") == "live", "the event stream reconnected")
            increment()
            c.wait(lambda: counts()[:1] == ["4"], "count 4: nothing acknowledged was lost")
            c.wait(lambda: serving() == survivor, f"served by {survivor} now")
            c.wait(lambda: c.text("#connection") == "live", "the event stream reconnected")
            c.wait(lambda: int(counts()[1]) > ticked, "the timer runs again, pushed to the page")
            assert c.text("#header") == "Hello, Ada!", c.text("#header")
            now = state()
            assert [counter["count"] for counter in now["counters"]][:1] == [4], now["counters"]
            assert now["counters"][1]["isTimerOn"] is True, now["counters"]
            assert now["episodes"][1]["isFavorite"] is True
            assert now["settings"]["displayName"] == "Ada", now["settings"]

        def a_reload_on_the_survivor_shows_the_same_session():
            driver.refresh()
            c.wait(lambda: c.text("#connection") == "live", "event stream open")
            c.wait(lambda: counts()[:1] == ["4"], "still count 4")
            assert len(counts()) == 2, counts()

        def a_bad_database_url_stops_startup_with_the_reason():
            closed = free_port()
            unknown = database.url.replace(database.name, "no_such_database")
            cases = [
                ("mysql://app@127.0.0.1/app", 'the scheme is "mysql", not postgres'),
                ("postgres://app@127.0.0.1/app?sslmod=disable", '"sslmod" is not supported'),
                (f"postgres://app:s3cret@127.0.0.1:{closed}/app?sslmode=disable", "could not be opened"),
                (unknown, 'database "no_such_database" does not exist'),
            ]
            for url, reason in cases:
                result = subprocess.run([binary(), "--port", "0"], capture_output=True, text=True,
                                        timeout=60, env={**os.environ, "DATABASE_URL": url})
                assert result.returncode != 0, (url, result.returncode, result.stderr)
                assert reason in result.stderr, (url, result.stderr)
                assert "s3cret" not in result.stderr, result.stderr
                assert "listening" not in result.stdout, result.stdout

        def both_instances_up():
            for name, port in ports.items():
                if processes[name].poll() is not None:
                    processes[name] = launch_instance(database.url, port, logs[name])
            wait_until(lambda: balancer_view(stats) == {"a": "UP", "b": "UP"},
                       "HAProxy sees both instances up")

        def kill_under_load(victim, visitors):
            """SIGKILL `victim`; returns each moved visitor's gap from the kill to its first 2xx
            answered by the other instance."""
            survivor = "b" if victim == "a" else "a"
            moved = [v for v in visitors if v.instance == victim]
            assert moved, "no visitor on the instance to kill"
            killed = time.monotonic()
            processes[victim].send_signal(signal.SIGKILL)
            processes[victim].wait(timeout=10)
            wait_until(lambda: all(v.first_answer(killed, survivor) for v in moved),
                       f"every session of {victim} answered by {survivor}", seconds=30)
            return [v.first_answer(killed, survivor) - killed for v in moved]

        def gaps_figure(gaps):
            return (f"{len(gaps)} moved sessions, median {statistics.median(gaps) * 1000:.0f} ms, "
                    f"max {max(gaps) * 1000:.0f} ms")

        def a_database_outage_and_two_sigkills_lose_nothing_acknowledged():
            both_instances_up()
            visitors = [Visitor(front) for _ in range(40)]
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
                database.stop_for_a_while()
                during = [threading.Thread(target=v.increment) for v in quiet]
                for thread in during:
                    thread.start()
                wait_until(lambda: readiness(ports["a"]) == 503 and readiness(ports["b"]) == 503,
                           "both instances not ready during the outage", seconds=15)
                not_ready = time.monotonic() - stopped
                wait_until(lambda: balancer_view(stats) == {"a": "DOWN", "b": "DOWN"},
                           "HAProxy took both instances out", seconds=15)
                time.sleep(max(0.0, 5 - (time.monotonic() - stopped)))
                started = time.monotonic()
                database.start_again()
                for thread in during:
                    thread.join(timeout=30)
                wait_until(lambda: readiness(ports["a"]) == 200 and readiness(ports["b"]) == 200,
                           "both instances ready again", seconds=30)
                ready = time.monotonic() - started
                both_instances_up()
                bases = [f"http://127.0.0.1:{port}/" for port in ports.values()]
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
                gaps = kill_under_load(first, busy)
                figures.append("failover after the first SIGKILL: " + gaps_figure(gaps))
                for visitor in quiet:
                    assert visitor.count() == seen[id(visitor)], (visitor.count(), seen[id(visitor)])
                both_instances_up()
                gaps = kill_under_load("b" if first == "a" else "a", busy)
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
                print("    " + line, flush=True)
            assert lost == 0, lost
            problems = [problem for visitor in visitors for problem in visitor.violations]
            assert not problems, "\n".join(problems[:10])

        def admin(command):
            """A command to HAProxy's runtime API."""
            with socket.socket(socket.AF_UNIX) as connection:
                connection.connect(admin_socket)
                connection.sendall((command + "\n").encode())
                return connection.recv(65536).decode()

        def out_of_rotation(name):
            """The balancer stops sending requests to `name`, which keeps running — as when its
            health checks fail: its visitors' next requests go to the other instance."""
            admin(f"set server app/{name} state maint")
            wait_until(lambda: balancer_view(stats)[name] == "MAINT", f"{name} out of rotation")

        def into_rotation(name):
            admin(f"set server app/{name} state ready")
            wait_until(lambda: balancer_view(stats)[name] == "UP", f"{name} back in rotation")

        superseded = {"dropped": 0}

        def stale_copies_dropped():
            """Stale copies dropped so far, on the instances that live and those killed."""
            return superseded["dropped"] + sum(
                metric(f"http://127.0.0.1:{port}/", "app_sessions_superseded_total")
                for name, port in ports.items() if processes[name].poll() is None)

        def kill(name):
            superseded["dropped"] += metric(f"http://127.0.0.1:{ports[name]}/",
                                            "app_sessions_superseded_total")
            processes[name].send_signal(signal.SIGKILL)
            processes[name].wait(timeout=10)

        def run_visitors(count, schedule, what):
            """`count` visitors under load while `schedule` runs; then the checker's verdict."""
            both_instances_up()
            visitors = [Visitor(front) for _ in range(count)]
            for visitor in visitors:
                visitor.start()
            dropped_before = stale_copies_dropped()
            with Load(visitors):
                time.sleep(0.5)
                extra = schedule(visitors) or []
                for name in ports:
                    if processes[name].poll() is not None:
                        processes[name] = launch_instance(database.url, ports[name], logs[name])
                    if balancer_view(stats)[name] == "MAINT":
                        into_rotation(name)
                both_instances_up()
                # Some ordinary traffic after the faults, on whichever copy now serves.
                time.sleep(1)
            problems = [problem for visitor in visitors for problem in visitor.final_check()]
            acknowledged = sum(v.acknowledged for v in visitors)
            figures = [f"{what}: {sum(v.moves for v in visitors)} moves of a session between "
                       f"instances, {stale_copies_dropped() - dropped_before:.0f} stale copies "
                       f"dropped, {acknowledged} acknowledged increments, {len(problems)} "
                       f"broken promises, {sum(v.balancer_503s for v in visitors)} balancer "
                       f"503s (JSON)"] + extra
            for line in figures:
                print("    " + line, flush=True)
            assert not problems, "\n".join(problems[:10])

        def sessions_move_between_live_instances_and_back():
            def schedule(visitors):
                for _ in range(3):
                    for name in ("a", "b"):
                        # Every session goes to the other instance, then, once that one is taken
                        # out in turn, back to this one — whose old copies still run.
                        out_of_rotation(name)
                        time.sleep(1)
                        into_rotation(name)
                        time.sleep(0.3)
            run_visitors(16, schedule, "moves between live instances")

        def an_outage_after_which_the_instances_recover_at_different_moments():
            def schedule(visitors):
                database.stop_for_a_while()
                wait_until(lambda: balancer_view(stats) == {"a": "DOWN", "b": "DOWN"},
                           "HAProxy took both instances out", seconds=15)
                # a comes back later than b: b takes every session, then a takes them back.
                out_of_rotation("a")
                time.sleep(2)
                database.start_again()
                wait_until(lambda: balancer_view(stats)["b"] == "UP", "b up again", seconds=30)
                time.sleep(1.5)
                into_rotation("a")
                out_of_rotation("b")
                time.sleep(1.5)
                into_rotation("b")
            run_visitors(16, schedule, "outage, instances back at different moments")

        def a_kill_while_the_survivor_is_re_entering_rotation():
            def schedule(visitors):
                # After an outage the instances come back one after the other: b is back and
                # serves every session, a is only now re-entering rotation (its checks have to
                # pass again) when b is killed.
                database.stop_for_a_while()
                wait_until(lambda: balancer_view(stats) == {"a": "DOWN", "b": "DOWN"},
                           "HAProxy took both instances out", seconds=15)
                out_of_rotation("a")
                time.sleep(1)
                database.start_again()
                wait_until(lambda: balancer_view(stats)["b"] == "UP", "b back", seconds=30)
                time.sleep(1)
                admin("set server app/a state ready")
                killed = time.monotonic()
                kill("b")
                wait_until(lambda: all(v.first_answer(killed, "a") for v in visitors),
                           "every session answered by a", seconds=30)
                gaps = [v.first_answer(killed, "a") - killed for v in visitors]
                return ["  from the SIGKILL of b to each session's first 2xx on a (re-entering "
                        "rotation then): " + gaps_figure(gaps)]
            run_visitors(16, schedule, "a kill while the survivor re-enters rotation")

        def a_random_schedule_of_kills_pauses_and_flaps():
            seed = int(os.environ.get("FAILOVER_SEED") or random.randrange(1 << 32))
            seconds = float(os.environ.get("FAILOVER_SECONDS") or 40)
            print(f"    random schedule: seed {seed} (FAILOVER_SEED={seed} reruns it), "
                  f"{seconds:.0f} s", flush=True)
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
                        failover = (balancer_view(stats)[other] == "UP"
                                    and processes[other].poll() is None)
                        killed = time.monotonic()
                        kill(victim)
                        if failover:
                            kills.append((killed, moved))
                        time.sleep(chance.uniform(0.2, 2))
                        processes[victim] = launch_instance(database.url, ports[victim],
                                                            logs[victim])
                        events.append(f"kill {victim}" + ("" if failover else f" ({other} out)"))
                    elif fault == "pause":
                        pause = chance.uniform(1, 4)
                        database.stop_for_a_while()
                        time.sleep(pause)
                        database.start_again()
                        events.append(f"pause {pause:.1f} s")
                    elif fault == "flap":
                        name = chance.choice("ab")
                        out = chance.uniform(0.3, 2)
                        out_of_rotation(name)
                        time.sleep(out)
                        into_rotation(name)
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
            run_visitors(16, schedule, f"random schedule (seed {seed})")

        for name, body in [
            ("a bad DATABASE_URL stops startup with the reason",
             a_bad_database_url_stops_startup_with_the_reason),
            ("a visitor uses the app through HAProxy", a_visitor_uses_the_app_through_the_balancer),
            ("SIGKILL on the serving instance: the visitor goes on on the other, nothing lost",
             the_serving_instance_is_killed_and_the_other_goes_on),
            ("a reload on the surviving instance shows the same session",
             a_reload_on_the_survivor_shows_the_same_session),
            ("a PostgreSQL outage under load, then two SIGKILLs: nothing acknowledged is lost",
             a_database_outage_and_two_sigkills_lose_nothing_acknowledged),
            ("sessions moved between two live instances and back: no stale copy acknowledges",
             sessions_move_between_live_instances_and_back),
            ("an outage after which the instances come back at different moments",
             an_outage_after_which_the_instances_recover_at_different_moments),
            ("a SIGKILL while the surviving instance is re-entering rotation after an outage",
             a_kill_while_the_survivor_is_re_entering_rotation),
            ("a seeded random schedule of kills, database pauses and rotation flaps",
             a_random_schedule_of_kills_pauses_and_flaps),
        ]:
            checks.run(name, body)
    except Exception as error:  # noqa: BLE001 - set-up failures count as a failed check
        print(f"FAIL set-up: {type(error).__name__}: {error}", flush=True)
        traceback.print_exc()
        checks.failed += 1
    finally:
        if driver is not None:
            driver.quit()
        for process in [*processes.values(), haproxy]:
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if database is not None:
            database.close()
        shutil.rmtree(folder, ignore_errors=True)

    print(f"{checks.passed} passed, {checks.failed} failed", flush=True)
    sys.exit(0 if checks.failed == 0 else 1)


if __name__ == "__main__":
    main()
