#!/usr/bin/env python3
"""Two app-server instances behind HAProxy, sharing one PostgreSQL database.

A real browser uses the app through the balancer (cookie-sticky routing); the instance serving it
is killed with SIGKILL mid-session; the page goes on on the other instance with everything that
was acknowledged: counts, a running timer, the selected tab, settings and favorites.

PostgreSQL: the server at TEST_DATABASE_URL (Tools/test-all starts one), else a throwaway one
started here with Tools/local-postgres. HAProxy: Debian's `haproxy` (Tools/test-all installs it).
Everything started here is stopped at the end.

    python3 Tests/EndToEnd/failover_test.py
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_browser_test import (  # noqa: E402
    ROOT, Checks, binary, free_port, make_driver, name_and_favorite, page_state)

HAPROXY_CONFIG = """
global
    maxconn 512

defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    # Event streams stay open as long as the page does.
    timeout tunnel 1h
    # A request whose server is down goes to another one instead of failing.
    option redispatch
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
    default-server inter 300ms fall 2 rise 1
    server a 127.0.0.1:{a} check cookie a
    server b 127.0.0.1:{b} check cookie b
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


class Database:
    """A database of its own on TEST_DATABASE_URL's server, or on a server started here."""

    def __init__(self):
        self.folder = None
        admin = os.environ.get("TEST_DATABASE_URL")
        if not admin:
            self.folder = tempfile.mkdtemp(prefix="failover-postgres-")
            admin = subprocess.run([os.path.join(ROOT, "Tools", "local-postgres"), "start", self.folder],
                                   check=True, capture_output=True, text=True).stdout.strip()
        self.admin = admin
        self.name = "failover_" + uuid.uuid4().hex
        self.psql(f"CREATE DATABASE {self.name}")
        base, _, query = admin.partition("?")
        self.url = base.rsplit("/", 1)[0] + "/" + self.name + ("?" + query if query else "")

    def psql(self, sql):
        subprocess.run(["psql", self.admin.split("?")[0], "-v", "ON_ERROR_STOP=1", "-qc", sql],
                       check=True, capture_output=True, text=True)

    def close(self):
        try:
            self.psql(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
        finally:
            if self.folder:
                subprocess.run([os.path.join(ROOT, "Tools", "local-postgres"), "stop", self.folder])


def launch_instance(database_url, port):
    process = subprocess.Popen(
        [binary(), "--offline", "--host", "127.0.0.1", "--port", str(port),
         "--trusted-proxy", "127.0.0.1", "--database-url", database_url, "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wait_for(f"http://127.0.0.1:{port}/readyz", process, f"app-server on {port}")
    return process


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
        for name, port in ports.items():
            processes[name] = launch_instance(database.url, port)
        front = free_port()
        config = os.path.join(folder, "haproxy.cfg")
        with open(config, "w") as file:
            file.write(HAPROXY_CONFIG.format(port=front, a=ports["a"], b=ports["b"]))
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

        for name, body in [
            ("a bad DATABASE_URL stops startup with the reason",
             a_bad_database_url_stops_startup_with_the_reason),
            ("a visitor uses the app through HAProxy", a_visitor_uses_the_app_through_the_balancer),
            ("SIGKILL on the serving instance: the visitor goes on on the other, nothing lost",
             the_serving_instance_is_killed_and_the_other_goes_on),
            ("a reload on the surviving instance shows the same session",
             a_reload_on_the_survivor_shows_the_same_session),
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
