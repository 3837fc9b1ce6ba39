"""Programs running in a real pseudo-terminal through tmux: start one, read its screen, press
keys, wait for text."""

import os
import pathlib
import subprocess
import time


class Tmux:
    """A tmux server of this test run alone (`-L app-e2e-<pid>`), without the user's
    configuration: another tmux user of the machine (a developer's sessions, another test run)
    neither sees these sessions nor can take the server away between one test's `kill-session`
    and the next one's `new-session`."""

    def __init__(self):
        self.socket = f"app-e2e-{os.getpid()}"

    def __call__(self, *arguments):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *arguments],
                              capture_output=True, text=True)

    def pane(self, name):
        return Pane(self, name)

    def stop(self):
        """Ends this run's server (only ever this one: it is named after this process) and
        removes its socket, which tmux leaves behind when its server exits."""
        self("kill-server")
        folder = pathlib.Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)


class Pane:
    """The tmux session `name`: one window, one program."""

    def __init__(self, tmux, name):
        self.tmux = tmux
        self.name = name

    def start(self, command, columns=110, rows=40):
        self.kill()
        started = self.tmux("new-session", "-d", "-s", self.name, "-x", str(columns),
                            "-y", str(rows), command)
        assert started.returncode == 0, started

    def kill(self):
        self.tmux("kill-session", "-t", self.name)

    def alive(self):
        return self.tmux("has-session", "-t", self.name).returncode == 0

    def screen(self, escapes=False):
        """What the window shows; with `escapes`, with its colour and style codes."""
        return self.tmux("capture-pane", "-t", self.name, "-p", *(["-e"] if escapes else [])).stdout

    def wait_for(self, *texts, timeout=20):
        """The screen once every one of `texts` is on it at the same time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            current = self.screen()
            if all(text in current for text in texts):
                return current
            time.sleep(0.1)
        wanted = repr(texts[0]) if len(texts) == 1 else f"{texts!r} together"
        raise AssertionError(f"screen never showed {wanted}; last screen:\n{self.screen()}")

    def wait_until_gone(self, text, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            current = self.screen()
            if text not in current:
                return current
            time.sleep(0.1)
        raise AssertionError(f"screen kept showing {text!r}; last screen:\n{self.screen()}")

    def keys(self, *sequence):
        """Each a character typed as it is, or a tmux key name (`Enter`, `Down`, `C-c`)."""
        for key in sequence:
            if len(key) == 1:
                self.tmux("send-keys", "-t", self.name, "-l", key)
            else:
                self.tmux("send-keys", "-t", self.name, key)
            time.sleep(0.05)

    def paste(self, text):
        """`text` arriving at once, as a paste does."""
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def resize(self, columns, rows):
        self.tmux("resize-window", "-t", self.name, "-x", str(columns), "-y", str(rows))

    def wait_for_exit(self, timeout=10):
        """Whether the program exited (its session ended) within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        return not self.alive()
