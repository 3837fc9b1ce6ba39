"""Black-box check: an acknowledged action is kept while sessions move between instances.

Written from docs/deployment.md and docs/server.md alone, without reading the server's code: it
checks the documented promise, not the implementation's idea of it.

docs/deployment.md promises that a 2xx answer to an action means the change is kept, also when
several `app-server` instances share one PostgreSQL database behind HAProxy and sessions move
from one instance to another. This file checks that promise from the outside:

- a throwaway PostgreSQL (Tools/local-postgres), two instances `a` and `b`, and HAProxy with the
  configuration of docs/deployment.md on loopback ports, plus an admin socket and a stats page;
- ~30 visitors, each with its own cookies and one `counter.increment` in flight at a time;
- a seeded random schedule of faults: SIGKILL of an instance (restarted afterwards), PostgreSQL
  paused for 2-6 s, and readiness flaps that move sessions between two *live* instances (HAProxy
  is told through its runtime API that an instance's health check failed, or puts it in
  maintenance), including a->b->a round trips and outages after which the instances come back
  at different moments.

Per session, every 2xx answer must show a count at least one above the previous 2xx answer's
(an acknowledged increment never disappears, no stale copy answers) and no more than the
increments sent; at the end each session's count must be at least the highest acknowledged one,
at least its first count plus its number of 2xx answers (each acknowledged increment adds one,
even when later increments hid a loss) and at most its first count plus the increments sent.

The schedule runs once for the file, with every visitor at the same time; then each visitor's
session is a test of its own (`test_a_session_keeps_every_acknowledged_increment[visitor7]`).

Environment (all optional):
  APP_SERVER       the app-server binary (default: APP_BIN_DIR's, else this checkout's debug
                   build, built when missing)
  LOCAL_POSTGRES   Tools/local-postgres (default: the one of this checkout)
  SEED             seed of the fault schedule and the visitors' pauses (default: random)
  VISITORS         number of visitors (default 30)
  FAULT_SECONDS    time given to the fault schedule (default 45)
  FAULT_KINDS      comma-separated kinds of fault to draw from (default: all of them: kill,
                   db-pause, flap, round-trip, outage-readiness, outage-kill, outage-db)
  WORK_DIR         folder for logs and the database (default: a new temporary folder)
  KEEP_WORK_DIR    1 to keep the work folder even when every session passed
"""

import http.client
import json
import os
import random
import shutil
import sys
import pathlib
import tempfile
import threading
import time
import types

import pytest

from support.haproxy import HAProxy
from support.postgres import LOCAL_POSTGRES, LocalPostgres
from support.servers import Services, free_port

SERVERS = ("a", "b")
START = time.monotonic()
VISITORS = int(os.environ.get("VISITORS", "30"))


def now():
    return time.monotonic() - START


def log(message):
    print(f"[{now():7.2f}s] {message}", flush=True)


class SetupError(Exception):
    pass


# --------------------------------------------------------------------------------------------
# The cluster: PostgreSQL, two instances, HAProxy


class Cluster:
    def __init__(self, work_dir, services, local_postgres):
        self.work_dir = work_dir
        self.services = services
        self.postgres = LocalPostgres(local_postgres, os.path.join(work_dir, "postgres"))
        self.haproxy = HAProxy(work_dir)
        self.pg_started = False
        self.database_url = None
        self.ports = {name: free_port() for name in SERVERS}
        self.front_port = free_port()
        self.stats_port = free_port()
        self.instances = {}
        self.holds = {}  # server -> threading.Event that ends a held "health down"

    # PostgreSQL ------------------------------------------------------------------------------

    def start_postgres(self):
        self.postgres.start()
        self.pg_started = True
        self.database_url = self.postgres.create_database("owner_check")
        log(f"PostgreSQL: {self.database_url}")

    def pause_postgres(self):
        self.postgres.pause()

    def resume_postgres(self):
        self.postgres.resume()

    # Instances -------------------------------------------------------------------------------

    def start_instance(self, name):
        """Instance `name`, once it answers /healthz (60 s at most)."""
        log_path = self.work_dir / f"app-server-{name}.log"
        with open(log_path, "a") as log_file:
            log_file.write(f"--- started at {now():.2f}s\n")
        self.instances[name] = self.services.app_server(
            "--offline", "--trusted-proxy", "127.0.0.1", "--database-url", self.database_url,
            "--log-level", "warning", "--sessions-per-minute", "100000",
            "--actions-per-second", "100000", "--reads-per-second", "100000",
            port=self.ports[name], log=log_path, stop_by="kill")

    def kill_instance(self, name):
        self.instances[name].kill()

    # HAProxy ---------------------------------------------------------------------------------

    def haproxy_config(self):
        servers = "\n".join(
            f"    server {name} 127.0.0.1:{self.ports[name]} check cookie {name}" for name in SERVERS)
        return f"""\
global
    stats socket {self.haproxy.socket} mode 600 level admin

defaults
    mode http
    timeout connect 1s
    # A busy instance may take a moment to answer its health check; that is not a failure.
    timeout check 1s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch 1
    retries 3
    option forwardfor

frontend web
    bind 127.0.0.1:{self.front_port}
    default_backend app

backend app
    balance roundrobin
    cookie SERVERID insert indirect nocache httponly attr "SameSite=Strict"
    option httpchk
    http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    default-server inter 300ms downinter 100ms fall 2 rise 2
    # Diagnostics only: which instance produced an answer (absent on HAProxy's own errors).
    http-response set-header X-Served-By %s
{servers}

listen stats
    bind 127.0.0.1:{self.stats_port}
    stats enable
    stats uri /
    stats refresh 1s
"""

    def start_haproxy(self):
        self.haproxy.start(self.haproxy_config())
        log(f"HAProxy: http://127.0.0.1:{self.front_port}/, "
            f"stats http://127.0.0.1:{self.stats_port}/")

    def admin(self, command):
        answer = self.haproxy.admin(command)
        if answer and not command.startswith("show"):
            raise SetupError(f"HAProxy refused {command!r}: {answer}")
        return answer

    def statuses(self):
        """Server name -> HAProxy's status ("UP", "DOWN", "MAINT", "UP 1/2", ...)."""
        return self.haproxy.statuses()

    def wait_up(self, names=SERVERS, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            statuses = self.statuses()
            if all(statuses.get(name) == "UP" for name in names):
                return
            if time.monotonic() > deadline:
                raise SetupError(f"not UP after {timeout} s: {statuses}")
            time.sleep(0.05)

    def hold_down(self, name):
        """Keep HAProxy's health of `name` at DOWN, as a failing /readyz would, until release."""
        stop = threading.Event()
        self.holds[name] = stop

        def keep_down():
            while not stop.is_set():
                self.admin(f"set server app/{name} health down")
                stop.wait(0.1)

        threading.Thread(target=keep_down, daemon=True).start()

    def release(self, name):
        """End a held DOWN: the next two good checks (~0.6 s) bring the instance back."""
        self.holds.pop(name).set()

    def maint(self, name):
        self.admin(f"set server app/{name} state maint")

    def ready(self, name):
        self.admin(f"set server app/{name} state ready")

    # Teardown --------------------------------------------------------------------------------

    def stop(self):
        for stop in self.holds.values():
            stop.set()
        self.services.finish()
        self.haproxy.stop()
        if self.pg_started:
            self.postgres.stop()


# --------------------------------------------------------------------------------------------
# Visitors


class Visitor:
    """One browser: its own cookies, one increment in flight at a time."""

    def __init__(self, number, front_port, seed):
        self.number = number
        self.front_port = front_port
        self.random = random.Random(seed)
        self.cookies = {}
        self.conn = None
        self.counter_id = None
        self.base = None        # the count when the session was created
        self.sent = 0           # increments sent (answered or not)
        self.last_ack = None    # count of the last 2xx answer
        self.max_ack = None     # highest count of a 2xx answer
        self.acks = 0
        self.statuses = {}      # status (or "error:<exception>") -> number of answers
        self.history = []       # (time, what, status, count, revision, generation, served by, note)
        self.violations = []    # (index in history, message)
        self.moves = 0
        self.servers_seen = []  # SERVERID values in order of change
        self.lost = False
        self.dropped = 0        # acknowledged increments a later 2xx answer did not show
        self.final = None

    # HTTP ------------------------------------------------------------------------------------

    def request(self, method, path, body=None):
        """(status, parsed body, served by, note); status "error" and the error's name as the
        body when no answer came."""
        headers = {"Origin": f"http://127.0.0.1:{self.front_port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.front_port, timeout=15)
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
            if response.will_close:
                self.conn.close()
                self.conn = None
        except (OSError, http.client.HTTPException) as error:
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            return "error", type(error).__name__, "-", ""
        note = self.take_cookies(response.msg.get_all("Set-Cookie") or [])
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return response.status, parsed, response.getheader("X-Served-By", "-"), note

    def take_cookies(self, set_cookies):
        note = ""
        for header in set_cookies:
            name, _, value = header.split(";", 1)[0].partition("=")
            name, value = name.strip(), value.strip()
            if name == "SERVERID":
                previous = self.cookies.get("SERVERID")
                if previous is not None and previous != value:
                    self.moves += 1
                    note = f"SERVERID {previous}->{value}"
                if not self.servers_seen or self.servers_seen[-1] != value:
                    self.servers_seen.append(value)
            self.cookies[name] = value
        return note

    def record(self, what, status, body, served_by, note=""):
        key = f"{status}:{body}" if status == "error" else status
        self.statuses[key] = self.statuses.get(key, 0) + 1
        count = revision = generation = None
        if isinstance(body, dict) and isinstance(body.get("state"), dict):
            revision, generation = body.get("revision"), body.get("generation")
            counter = self.counter(body["state"])
            count = counter["count"] if counter else None
        elif isinstance(body, dict) and "error" in body:
            note = (note + " " if note else "") + str(body["error"])[:80]
        elif isinstance(body, str):
            note = (note + " " if note else "") + body
        self.history.append((now(), what, status, count, revision, generation, served_by, note))
        return count

    def counter(self, state):
        for counter in state.get("counters") or []:
            if self.counter_id is None or counter.get("id") == self.counter_id:
                return counter
        return None

    def violation(self, message):
        self.violations.append((len(self.history) - 1, message))

    # The visit -------------------------------------------------------------------------------

    def create(self):
        status, body, served_by, note = self.request("POST", "/api/session")
        count = self.record("create", status, body, served_by, note)
        if status != 201 or count is None:
            raise SetupError(f"visitor {self.number}: POST /api/session answered {status}: {body}")
        self.counter_id = self.counter(body["state"])["id"]
        self.base = count

    def run(self, stop):
        while not stop.is_set() and not self.lost:
            time.sleep(self.random.uniform(0, 0.05))
            self.increment()

    def increment(self):
        self.sent += 1
        status, body, served_by, note = self.request(
            "POST", "/api/session/actions", {"type": "counter.increment", "id": self.counter_id})
        count = self.record("increment", status, body, served_by, note)
        if status in (200, 201):
            self.acks += 1
            self.check_ack(count)
        elif status == 404:
            self.lost = True
            if self.max_ack is not None:
                self.violation("the session is gone (404) after acknowledged increments")
        elif status not in ("error", 502, 503, 504):
            self.violation(f"unexpected answer {status}")

    def check_ack(self, count):
        if count is None:
            self.violation("a 2xx answer without the counter")
            return
        previous = self.base if self.last_ack is None else self.last_ack
        if count < previous + 1:
            self.dropped += previous + 1 - count
            self.violation(f"count {count} after an acknowledged {previous}: "
                           f"{previous + 1 - count} acknowledged increment(s) missing")
        if count > self.base + self.sent:
            self.violation(f"count {count} but only {self.sent} increment(s) sent "
                           f"from {self.base}")
        self.last_ack = count
        self.max_ack = count if self.max_ack is None else max(self.max_ack, count)

    def read_final(self):
        status, body, served_by, note = self.request("GET", "/api/session/state")
        count = self.record("final read", status, body, served_by, note)
        if status != 200 or count is None:
            if self.max_ack is not None and not self.lost:
                self.violation(f"the final read answered {status}")
            return
        self.final = count
        if self.max_ack is not None and count < self.max_ack:
            self.violation(f"final count {count} below the acknowledged {self.max_ack}")
        # Every increment adds one and nothing takes away, so each acknowledged increment kept
        # leaves the count at least `base + acks`, even when later increments hid a loss.
        if count < self.base + self.acks:
            self.violation(f"final count {count} but {self.acks} increment(s) were acknowledged "
                           f"from {self.base}: {self.base + self.acks - count} missing")
        if count > self.base + self.sent:
            self.violation(f"final count {count} but only {self.sent} increment(s) sent "
                           f"from {self.base}")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def returned(self):
        """Whether the session came back to an instance it had left (a->b->a)."""
        return len(self.servers_seen) != len(set(self.servers_seen))


def format_entry(entry):
    t, what, status, count, revision, generation, served_by, note = entry
    return (f"{t:8.2f}s {what:<10} {status!s:>5} count={count!s:<5} rev={revision!s:<5} "
            f"gen={generation or '-':<12} by={served_by} {note}").rstrip()


def context(history, index):
    """The history around entry `index`, from a few entries before the previous 2xx answer,
    with runs of the same refusal collapsed into one line."""
    start = index - 1
    while start > 0 and history[start][2] not in (200, 201):
        start -= 1
    key = lambda entry: (entry[1], entry[2], entry[3], entry[6], entry[7])
    lines, i, end = [], max(0, start - 3), min(len(history), index + 3)
    while i < end:
        j = i
        if i != index and history[i][3] is None:
            while j + 1 < end and j + 1 != index and key(history[j + 1]) == key(history[i]):
                j += 1
        if j - i >= 2:
            t0, what, status, _, _, _, served_by, note = history[i]
            lines.append(f"   {t0:8.2f}s .. {history[j][0]:.2f}s: {j - i + 1} x {what} {status} "
                         f"by={served_by} {note}".rstrip())
        else:
            j = i
            lines.append(f"{'>>' if i == index else '  '} {format_entry(history[i])}")
        i = j + 1
    return lines


# --------------------------------------------------------------------------------------------
# Faults


FAULT_KINDS = ["kill", "db-pause", "flap", "round-trip", "outage-readiness", "outage-kill",
               "outage-db"]
FAULT_WEIGHTS = [2, 1, 3, 4, 1, 1, 1]


def make_schedule(rng, kinds):
    """Every kind of fault once, in random order, then random ones; each with its parameters."""
    def event(kind):
        first = rng.choice(SERVERS)
        other = "b" if first == "a" else "a"
        u = lambda lo, hi: round(rng.uniform(lo, hi), 1)
        if kind == "kill":
            return dict(kind=kind, server=first, down=u(0.5, 3))
        if kind == "db-pause":
            return dict(kind=kind, seconds=u(2, 6))
        if kind == "flap":
            return dict(kind=kind, server=first, seconds=u(0.5, 4), how=rng.choice(["health", "maint"]))
        if kind == "round-trip":
            return dict(kind=kind, server=first, other=other, first_down=u(1, 3), between=u(0.5, 3),
                        second_down=u(1, 3), how=rng.choice(["health", "maint"]))
        if kind == "outage-readiness":
            return dict(kind=kind, server=first, other=other, both=u(1, 3), stagger=u(1, 4))
        if kind == "outage-kill":
            return dict(kind=kind, server=first, other=other, both=u(0.5, 2), stagger=u(1, 3))
        if kind == "outage-db":
            return dict(kind=kind, server=first, other=other, seconds=u(2, 6), stagger=u(1, 4))
        raise ValueError(kind)

    schedule = [event(kind) for kind in rng.sample(kinds, len(kinds))]
    weights = [FAULT_WEIGHTS[FAULT_KINDS.index(kind)] for kind in kinds]
    schedule += [event(rng.choices(kinds, weights)[0]) for _ in range(40)]
    for item in schedule:
        item["calm"] = round(rng.uniform(1, 3), 1)
    return schedule


def describe(item):
    return item["kind"] + " " + " ".join(f"{k}={v}" for k, v in item.items()
                                         if k not in ("kind", "calm"))


class Faults:
    def __init__(self, cluster):
        self.c = cluster

    def down(self, name, how):
        (self.c.hold_down if how == "health" else self.c.maint)(name)

    def up(self, name, how):
        (self.c.release if how == "health" else self.c.ready)(name)

    def run(self, item):
        c, kind = self.c, item["kind"]
        if kind == "kill":
            c.kill_instance(item["server"])
            time.sleep(item["down"])
            c.start_instance(item["server"])
        elif kind == "db-pause":
            c.pause_postgres()
            time.sleep(item["seconds"])
            c.resume_postgres()
        elif kind == "flap":
            self.down(item["server"], item["how"])
            time.sleep(item["seconds"])
            self.up(item["server"], item["how"])
        elif kind == "round-trip":
            # The sessions of one instance move to the other and then back to the first,
            # which still runs (and still holds its copies).
            self.down(item["server"], item["how"])
            time.sleep(item["first_down"])
            self.up(item["server"], item["how"])
            c.wait_up([item["server"]])
            time.sleep(item["between"])
            self.down(item["other"], item["how"])
            time.sleep(item["second_down"])
            self.up(item["other"], item["how"])
        elif kind == "outage-readiness":
            c.hold_down(item["server"])
            c.hold_down(item["other"])
            time.sleep(item["both"])
            c.release(item["server"])
            time.sleep(item["stagger"])
            c.release(item["other"])
        elif kind == "outage-kill":
            c.kill_instance(item["server"])
            c.kill_instance(item["other"])
            time.sleep(item["both"])
            c.start_instance(item["server"])
            c.wait_up([item["server"]])
            time.sleep(item["stagger"])
            c.start_instance(item["other"])
        elif kind == "outage-db":
            # Both instances lose the database; one is kept out of rotation a while longer.
            c.pause_postgres()
            c.hold_down(item["other"])
            time.sleep(item["seconds"])
            c.resume_postgres()
            c.wait_up([item["server"]])
            time.sleep(item["stagger"])
            c.release(item["other"])
        c.wait_up()


# --------------------------------------------------------------------------------------------
# The run


def report(visitors, executed, seed, work_dir):
    print()
    print(f"seed {seed}; faults run: {len(executed)}")
    statuses = {}
    for v in visitors:
        for status, n in v.statuses.items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
    moved = [v for v in visitors if v.moves]
    returned = [v for v in visitors if v.returned()]
    print(f"sessions: {len(visitors)}; moved between instances: {len(moved)} "
          f"({sum(v.moves for v in visitors)} moves); came back to an instance they had left: "
          f"{len(returned)}")
    print(f"increments sent: {sum(v.sent for v in visitors)}; "
          f"2xx: {sum(v.acks for v in visitors)}; answers by status: "
          + ", ".join(f"{k}={n}" for k, n in sorted(statuses.items())))
    dropped = sum(v.dropped for v in visitors)
    print(f"acknowledged increments missing from a later 2xx answer: {dropped}")
    missing = sum(max(0, v.base + v.acks - v.final) for v in visitors if v.final is not None)
    print(f"acknowledged increments missing at the end: {missing} "
          f"(final count below the session's base + its 2xx answers)")
    failed = [v for v in visitors if v.violations]
    print(f"violations: {sum(len(v.violations) for v in visitors)} in {len(failed)} session(s)")
    for v in failed:
        print(f"\nvisitor {v.number} (SERVERID path {'->'.join(v.servers_seen)}; sent {v.sent}, "
              f"base {v.base}, highest acknowledged {v.max_ack}, final {v.final}):")
        for index, message in v.violations[:5]:
            print(f"  VIOLATION: {message}")
            for line in context(v.history, index):
                print(f"    {line}")
        if len(v.violations) > 5:
            print(f"  ... and {len(v.violations) - 5} more")
    if failed:
        print(f"\nlogs: {work_dir}")
    return not failed


def schedule_kinds():
    """The kinds of fault FAULT_KINDS names (all of them unless set)."""
    kinds = [k for k in os.environ.get("FAULT_KINDS", ",".join(FAULT_KINDS)).split(",") if k]
    if not kinds or any(kind not in FAULT_KINDS for kind in kinds):
        pytest.fail(f"FAULT_KINDS: expected some of {','.join(FAULT_KINDS)}", pytrace=False)
    return kinds


@pytest.fixture(scope="module")
def run(binaries, notes):
    """The whole run: the cluster, the visitors and the fault schedule; each visitor's verdict is
    read by its test afterwards."""
    seed = int(os.environ.get("SEED") or random.SystemRandom().randrange(1, 10**9))
    fault_seconds = float(os.environ.get("FAULT_SECONDS", "45"))
    kinds = schedule_kinds()
    local_postgres = os.environ.get("LOCAL_POSTGRES") or LOCAL_POSTGRES
    work_dir = os.environ.get("WORK_DIR") or tempfile.mkdtemp(prefix="owner-check-")
    os.makedirs(work_dir, exist_ok=True)
    os.chmod(work_dir, 0o755)  # local-postgres runs the cluster as `postgres` when root
    work_dir = pathlib.Path(work_dir)
    notes(f"failover black box: seed {seed} (SEED={seed} reruns this schedule); "
          f"app-server {binaries.app_server}; work folder {work_dir}")

    rng = random.Random(seed)
    schedule = make_schedule(rng, kinds)
    cluster = Cluster(work_dir, Services(binaries, work_dir), local_postgres)
    visitors, threads, executed = [], [], []
    stop = threading.Event()
    try:
        cluster.start_postgres()
        for name in SERVERS:
            cluster.start_instance(name)
        cluster.start_haproxy()
        cluster.wait_up()
        visitors = [Visitor(i, cluster.front_port, rng.random()) for i in range(VISITORS)]
        for v in visitors:
            v.create()
        threads = [threading.Thread(target=v.run, args=(stop,), daemon=True) for v in visitors]
        for t in threads:
            t.start()
        log(f"{len(visitors)} visitors running")
        time.sleep(2)

        faults, started = Faults(cluster), time.monotonic()
        for item in schedule:
            if time.monotonic() - started > fault_seconds:
                break
            log(f"fault: {describe(item)}")
            faults.run(item)
            executed.append(item)
            log(f"  both instances UP again; calm for {item['calm']} s")
            time.sleep(item["calm"])

        cluster.wait_up()
        time.sleep(2)
        stop.set()
        for t in threads:
            t.join(timeout=30)
        cluster.wait_up()
        log("faults over, both instances UP; reading every session")
        for v in visitors:
            v.close()
            v.read_final()
    except BaseException:
        if visitors:
            report(visitors, executed, seed, work_dir)
        notes(f"failover black box: logs in {work_dir}")
        raise
    finally:
        stop.set()
        cluster.stop()
    passed = report(visitors, executed, seed, work_dir)
    notes(f"failover black box: seed {seed}, {len(executed)} faults, "
          f"{sum(v.acks for v in visitors)} acknowledged increments, "
          f"{sum(len(v.violations) for v in visitors)} violations")
    yield types.SimpleNamespace(seed=seed, visitors=visitors, work_dir=work_dir)
    if passed and not os.environ.get("KEEP_WORK_DIR") and not os.environ.get("WORK_DIR"):
        shutil.rmtree(work_dir, ignore_errors=True)
    else:
        notes(f"failover black box: logs in {work_dir}")


@pytest.mark.parametrize("number", range(VISITORS), ids=lambda number: f"visitor{number}")
def test_a_session_keeps_every_acknowledged_increment(number, run):
    v = run.visitors[number]
    lines = [f"seed {run.seed} (SEED={run.seed} reruns this schedule); logs in {run.work_dir}",
             f"visitor {v.number} (SERVERID path {'->'.join(v.servers_seen)}; sent {v.sent}, "
             f"base {v.base}, highest acknowledged {v.max_ack}, final {v.final}):"]
    for index, message in v.violations[:5]:
        lines.append(f"  VIOLATION: {message}")
        lines.extend(f"    {line}" for line in context(v.history, index))
    if len(v.violations) > 5:
        lines.append(f"  ... and {len(v.violations) - 5} more")
    assert not v.violations, "\n".join(lines)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
