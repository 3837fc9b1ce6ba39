#!/usr/bin/env python3
"""The built executables on a real SQLite file that cannot grow (RLIMIT_FSIZE, as a full disk or
a quota does): a change the database refused is never reported as kept, the process keeps
running, and nothing it acknowledged is lost.

- app-server: actions are answered 200 while the file takes them, then 503 `not saved: …`;
  readiness and metrics say the saves fail; after SIGKILL and a restart without the cap the
  session has exactly the count last acknowledged.
- app-cli: a settings change the file refused shows "Settings could not be saved" on the
  Settings screen, and the app goes on.

Each process is started with the default disposition of SIGXFSZ (Python's subprocess restores
it, and tmux's shell has it). Linux cuts a write that crosses the cap short without the signal,
and sends SIGXFSZ — which kills by default — only for a write that starts at or past the cap; the
executables ignore it, so such a write fails like the others.

    python3 Tests/EndToEnd/storage_full_test.py
"""

import http.client
import json
import os
import pathlib
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_browser_test import binary, free_port, metric  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / ".build" / "debug" / "app-cli"
TMUX_SESSION = "storage-full-e2e"


def start_server(database, port, file_size_limit=None):
    """app-server on `database`; with a limit, no file it writes may grow past that many bytes."""
    def cap():
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    process = subprocess.Popen(
        [binary(), "--offline", "--host", "127.0.0.1", "--port", str(port), "--database", database,
         "--log-level", "error"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=cap)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"app-server exited with {process.returncode}"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("app-server did not start")


class Client:
    """An API client keeping its cookies, as the page does."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}

    def request(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body),
                               headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";")[0]
            return response.status, text
        finally:
            connection.close()

    def count(self):
        status, text = self.request("GET", "/api/session/state")
        assert status == 200, (status, text)
        return json.loads(text)["state"]["counters"][0]["count"]


def readiness(port):
    try:
        response = urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5)
        return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def server_with_a_full_file_refuses_and_loses_nothing(folder):
    database = os.path.join(folder, "server.sqlite")
    port = free_port()
    server = start_server(database, port, file_size_limit=256 * 1024)
    try:
        client = Client(port)
        status, text = client.request("POST", "/api/session")
        assert status == 201, (status, text)
        counter = json.loads(text)["state"]["counters"][0]["id"]
        acknowledged, refusal = 0, None
        for _ in range(5000):
            status, text = client.request(
                "POST", "/api/session/actions", {"type": "counter.increment", "id": counter})
            if status == 200:
                acknowledged = json.loads(text)["state"]["counters"][0]["count"]
                continue
            refusal = (status, json.loads(text)["error"])
            break
        assert refusal is not None, "the capped file took 5,000 writes"
        assert acknowledged > 0, "not one write was taken"
        assert refusal[0] == 503, refusal
        assert refusal[1].startswith("not saved: the storage refused the write"), refusal
        assert server.poll() is None, f"app-server died with {server.returncode}"
        # The change is in the session, not claimed as kept; readiness and metrics say why.
        assert client.count() == acknowledged + 1
        ready = readiness(port)
        assert ready[0] == 503 and "saves are failing" in ready[1], ready
        base = f"http://127.0.0.1:{port}/"
        assert metric(base, "app_session_saves_failed_total") > 0
        print(f"    {acknowledged} increments acknowledged before the file was full; "
              f"then 503: {refusal[1][:80]}…", flush=True)

        # SIGKILL, then the same file without the cap: what was acknowledged is there, and
        # nothing that was not.
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        server = start_server(database, port)
        assert client.count() == acknowledged, (client.count(), acknowledged)
        status, text = client.request(
            "POST", "/api/session/actions", {"type": "counter.increment", "id": counter})
        assert status == 200, (status, text)
        assert readiness(port)[0] == 200
    finally:
        server.kill()
        server.wait(timeout=10)


def tmux(*arguments):
    # The same private tmux server as the other terminal tests (terminal.py).
    return subprocess.run(["tmux", "-L", f"app-e2e-{os.getpid()}", "-f", "/dev/null", *arguments],
                          capture_output=True, text=True)


def wait_for_screen(*texts, timeout=20):
    """The screen once every one of `texts` is on it at the same time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-t", TMUX_SESSION, "-p").stdout
        if all(text in screen for text in texts):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{texts!r} never appeared together:\n{screen}")


def quit_app():
    tmux("send-keys", "-t", TMUX_SESSION, "q")
    deadline = time.monotonic() + 20
    while tmux("has-session", "-t", TMUX_SESSION).returncode == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert tmux("has-session", "-t", TMUX_SESSION).returncode != 0, "app-cli did not quit"


def terminal_app_with_a_full_file_says_not_saved(folder):
    if not CLI.exists():
        subprocess.run(["swift", "build", "--product", "app-cli"], cwd=ROOT, check=True)
    database = os.path.join(folder, "cli.sqlite")
    command = f"env XDG_DATA_HOME={folder} {CLI} --offline --database {database}"
    tmux("kill-session", "-t", TMUX_SESSION)
    try:
        # A first run creates the file; the cap then leaves room for about one page more than
        # the largest of its files (ulimit -f counts 512-byte blocks).
        tmux("new-session", "-d", "-s", TMUX_SESSION, "-x", "140", "-y", "30", command)
        wait_for_screen("[1 Counters]")
        quit_app()
        largest = max(os.path.getsize(path) for path in pathlib.Path(folder).glob("cli.sqlite*"))
        blocks = (largest + 4096) // 512
        tmux("new-session", "-d", "-s", TMUX_SESSION, "-x", "140", "-y", "30",
             f"sh -c 'ulimit -f {blocks}; exec {command}'")
        wait_for_screen("[1 Counters]")
        tmux("send-keys", "-t", TMUX_SESSION, "3")
        wait_for_screen("Display name")
        tmux("send-keys", "-t", TMUX_SESSION, "Enter")
        for character in "Grace Hopper":
            tmux("send-keys", "-t", TMUX_SESSION, "-l", character)
        tmux("send-keys", "-t", TMUX_SESSION, "Enter")
        # The first refused save can come while the name is still being typed: wait for the
        # whole name with the message.
        wait_for_screen("Settings could not be saved", "Hello, Grace Hopper!")
        # The app goes on: another screen, and back.
        tmux("send-keys", "-t", TMUX_SESSION, "1")
        wait_for_screen("[1 Counters]")
        quit_app()
        # What was not saved is not there after a restart.
        tmux("new-session", "-d", "-s", TMUX_SESSION, "-x", "140", "-y", "30", command)
        screen = wait_for_screen("[1 Counters]")
        assert "Grace Hopper" not in screen, screen
        quit_app()
    finally:
        tmux("kill-session", "-t", TMUX_SESSION)


def main():
    folder = tempfile.mkdtemp(prefix="storage-full-e2e-")
    passed = failed = 0
    try:
        for name, body in [
            ("app-server with a full SQLite file: 503 not saved, stays up, nothing acknowledged "
             "lost after SIGKILL", server_with_a_full_file_refuses_and_loses_nothing),
            ("app-cli with a full SQLite file says the settings were not saved and goes on",
             terminal_app_with_a_full_file_says_not_saved),
        ]:
            try:
                body(folder)
                print(f"PASS {name}", flush=True)
                passed += 1
            except Exception as error:  # noqa: BLE001 - every failure is reported, then counted
                print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
                traceback.print_exc()
                failed += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
