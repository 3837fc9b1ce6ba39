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
"""

import http.client
import json
import os
import pathlib
import resource
import sys
import urllib.error
import urllib.request

import pytest

from support.servers import free_port, metric


def start_server(services, database, port, file_size_limit=None):
    """app-server on `database`; with a limit, no file it writes may grow past that many bytes
    (its output goes nowhere then: the limit holds for every file it writes, a log too)."""
    def cap():
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    return services.app_server("--offline", "--database", database, "--log-level", "error",
                               port=port, preexec_fn=cap, output=file_size_limit is None,
                               stop_by="kill")


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


def test_app_server_with_a_full_sqlite_file_answers_503_not_saved_and_loses_nothing_after_sigkill(
        services, tmp_path, notes):
    database = os.path.join(tmp_path, "server.sqlite")
    port = free_port()
    server = start_server(services, database, port, file_size_limit=256 * 1024)
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
    assert server.running, f"app-server died with {server.process.returncode}"
    # The change is in the session, not claimed as kept; readiness and metrics say why.
    assert client.count() == acknowledged + 1
    ready = readiness(port)
    assert ready[0] == 503 and "saves are failing" in ready[1], ready
    base = f"http://127.0.0.1:{port}/"
    assert metric(base, "app_session_saves_failed_total") > 0
    notes(f"storage full: {acknowledged} increments acknowledged before the file was full; "
          f"then 503: {refusal[1][:80]}…")

    # SIGKILL, then the same file without the cap: what was acknowledged is there, and
    # nothing that was not.
    server.kill()
    server = start_server(services, database, port)
    assert client.count() == acknowledged, (client.count(), acknowledged)
    status, text = client.request(
        "POST", "/api/session/actions", {"type": "counter.increment", "id": counter})
    assert status == 200, (status, text)
    assert readiness(port)[0] == 200


def quit_app(pane):
    pane.keys("q")
    assert pane.wait_for_exit(timeout=20), "app-cli did not quit"


def test_app_cli_with_a_full_sqlite_file_says_the_settings_were_not_saved_and_goes_on(
        binaries, pane, tmp_path):
    folder = tmp_path
    database = os.path.join(folder, "cli.sqlite")
    command = f"env XDG_DATA_HOME={folder} {binaries.app_cli} --offline --database {database}"
    # A first run creates the file; the cap then leaves room for about one page more than
    # the largest of its files (ulimit -f counts 512-byte blocks).
    pane.start(command, 140, 30)
    pane.wait_for("[1 Counters]")
    quit_app(pane)
    largest = max(os.path.getsize(path) for path in pathlib.Path(folder).glob("cli.sqlite*"))
    blocks = (largest + 4096) // 512
    pane.start(f"sh -c 'ulimit -f {blocks}; exec {command}'", 140, 30)
    pane.wait_for("[1 Counters]")
    pane.keys("3")
    pane.wait_for("Display name")
    pane.keys("Enter")
    for character in "Grace Hopper":
        pane.paste(character)
    pane.keys("Enter")
    # The first refused save can come while the name is still being typed: wait for the
    # whole name with the message.
    pane.wait_for("Settings could not be saved", "Hello, Grace Hopper!")
    # The app goes on: another screen, and back.
    pane.keys("1")
    pane.wait_for("[1 Counters]")
    quit_app(pane)
    # What was not saved is not there after a restart.
    pane.start(command, 140, 30)
    screen = pane.wait_for("[1 Counters]")
    assert "Grace Hopper" not in screen, screen
    quit_app(pane)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
