"""HAProxy in front of app-server instances, with its runtime API on a Unix socket."""

import socket
import subprocess
import time

from .prerequisites import require_program


class HAProxy:
    """HAProxy with its files (configuration, log, runtime API socket) in `folder`."""

    def __init__(self, folder):
        require_program("haproxy", "haproxy", "the failover tests balance two instances with it")
        self.folder = folder
        self.socket = str(folder / "haproxy.sock")
        self.log = folder / "haproxy.log"
        self.process = None

    def start(self, config, timeout=10):
        """Runs `config`, whose `global` section declares `stats socket <self.socket> mode 600
        level admin`; returns once the runtime API answers."""
        path = self.folder / "haproxy.cfg"
        path.write_text(config)
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(["haproxy", "-db", "-f", str(path)],
                                            stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while not (self.folder / "haproxy.sock").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"HAProxy did not start:\n{self.log.read_text()}")
            time.sleep(0.05)
        return self

    def admin(self, command):
        """HAProxy's answer to a command of its runtime API."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.settimeout(5)
            connection.connect(self.socket)
            connection.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode().strip()

    def statuses(self, backend="app"):
        """Each server of `backend` and HAProxy's status of it ("UP", "DOWN", "MAINT", "UP 1/2", …)."""
        lines = self.admin("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        status = header.index("status")
        rows = (line.split(",") for line in lines[1:] if line.startswith(backend + ","))
        return {row[1]: row[status] for row in rows if row[1] not in ("FRONTEND", "BACKEND")}

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
