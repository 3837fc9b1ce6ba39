"""Server processes the tests start on 127.0.0.1 (app-server, preview-server) and stop at the
end of the fixture that started them. What a server prints goes to a log file, never to a pipe
(a pipe nobody reads stops the server once it is full); a failing test shows the end of the log
of every server that was running (conftest.py)."""

import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

# The servers of the fixtures still in scope, whose logs a failing test shows.
RUNNING = []


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def metric(base, name, **labels):
    """The value of one series of a server's /metrics (0 when it is not there yet)."""
    text = urllib.request.urlopen(base + "metrics", timeout=10).read().decode()
    total = 0.0
    for line in text.splitlines():
        match = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        if not match or match.group(1) != name:
            continue
        if all(f'{key}="{value}"' in (match.group(2) or "") for key, value in labels.items()):
            total += float(match.group(3))
    return total


class Server:
    """One server process.

    Its address is either chosen here (`port`; ready once `ready_path` answers 2xx) or, with
    `port=0`, the one it announces on a line of its output (`announces`, a pattern whose first
    group is the URL). At the end it is stopped by `stop_by`: "terminate" (SIGTERM, and the test
    fails unless it exits within `stop_within` seconds), "terminate-or-kill" (SIGTERM, then
    SIGKILL without failing) or "kill"."""

    def __init__(self, name, command, log, *, port, ready_path="/healthz", announces=None,
                 preexec_fn=None, output=True, stop_by="terminate", stop_within=10):
        self.name = name
        self.command = [str(part) for part in command]
        self.log = log
        self.port = port
        self.ready_path = ready_path
        self.announces = announces
        self.preexec_fn = preexec_fn
        self.output = output
        self.stop_by = stop_by
        self.stop_within = stop_within
        self.process = None
        self.url = None

    def start(self, timeout=60):
        with open(self.log, "a") as log:
            log.write(f"--- {' '.join(self.command)}\n")
            log.flush()
            start = self.log.stat().st_size
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL,
                stdout=log if self.output else subprocess.DEVNULL,
                stderr=subprocess.STDOUT if self.output else subprocess.DEVNULL,
                preexec_fn=self.preexec_fn)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited early with status "
                                     f"{self.process.returncode}:\n{self.log_tail()}")
            if self.announces:
                match = re.search(self.announces, self.log.read_text(errors="replace")[start:])
                if match:
                    self.url = match.group(1)
                    return self
            else:
                url = f"http://127.0.0.1:{self.port}/"
                try:
                    urllib.request.urlopen(url + self.ready_path.lstrip("/"), timeout=1).read()
                    self.url = url
                    return self
                except OSError:
                    pass
            time.sleep(0.1)
        self.process.kill()
        self.process.wait()
        raise AssertionError(f"{self.name} did not start listening within {timeout} s:\n"
                             f"{self.log_tail()}")

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    def get(self, path):
        """(status, body) of a GET of `path`."""
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self):
        """SIGTERM; fails unless the process exits within `stop_within` seconds."""
        if not self.running:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=self.stop_within)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"{self.name} did not stop within {self.stop_within} s of SIGTERM")

    def kill(self):
        if self.running:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def finish(self):
        """Stops the process the way it was started to be stopped."""
        if self.stop_by == "kill":
            self.kill()
        elif self.stop_by == "terminate-or-kill":
            if self.running:
                self.process.terminate()
                try:
                    self.process.wait(timeout=self.stop_within)
                except subprocess.TimeoutExpired:
                    self.kill()
        else:
            self.stop()

    def log_tail(self, lines=40):
        if not self.output or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


class Services:
    """Starts the servers of one fixture scope (a test, a module) and stops them at its end."""

    def __init__(self, binaries, folder):
        self.binaries = binaries
        self.folder = folder
        self.started = []

    def app_server(self, *arguments, port=None, log=None, **options):
        """app-server on 127.0.0.1 with `arguments`: on `port` (a free one unless given;
        0 reads the address it announces)."""
        port = free_port() if port is None else port
        if port == 0:
            options.setdefault("announces", r"listening on (http://127\.0\.0\.1:\d+/)")
        command = [self.binaries.app_server, "--host", "127.0.0.1", "--port", port, *arguments]
        return self.start(f"app-server {port or ''}".strip(), command, log, port=port, **options)

    def preview_server(self, feature, *arguments, **options):
        """preview-server of one feature on a port it chooses and announces."""
        command = [self.binaries.preview_server, "--feature", feature, "--port", "0", *arguments]
        options.setdefault("stop_within", 20)
        return self.start(f"preview-server {feature}", command, None, port=0,
                          announces=r"on (http://127\.0\.0\.1:\d+/)", **options)

    def start(self, name, command, log, **options):
        log = log or self.folder / f"{name.replace(' ', '-')}-{len(self.started) + 1}.log"
        server = Server(name, command, log, **options)
        self.started.append(server)
        RUNNING.append(server)
        return server.start()

    def finish(self):
        """Stops every server still running; fails when one did not stop as it should."""
        problems = []
        for server in self.started:
            try:
                server.finish()
            except AssertionError as error:
                problems.append(str(error))
            finally:
                if server in RUNNING:
                    RUNNING.remove(server)
        assert not problems, "; ".join(problems)
