"""A program running in a real pseudo-terminal through tmux: start it, read its screen, press
keys, wait for text. Shared by the end-to-end tests of the terminal executables."""

import os
import subprocess
import time

# A tmux server of this test process alone, without the user's configuration: another tmux user
# of the machine (a developer's sessions, another test run) neither sees these sessions nor can
# take the server away between a test's `kill-session` and its `new-session`.
SOCKET = f"app-e2e-{os.getpid()}"


def tmux(*arguments):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *arguments],
                          capture_output=True, text=True)


class Pane:
    """The tmux session `name`: one window, one program."""

    def __init__(self, name):
        self.name = name

    def start(self, command, columns=110, rows=40):
        tmux("kill-session", "-t", self.name)
        started = tmux("new-session", "-d", "-s", self.name, "-x", str(columns), "-y", str(rows),
                       command)
        assert started.returncode == 0, started

    def kill(self):
        tmux("kill-session", "-t", self.name)

    def screen(self):
        return tmux("capture-pane", "-t", self.name, "-p").stdout

    def wait_for(self, text, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            current = self.screen()
            if text in current:
                return current
            time.sleep(0.1)
        raise AssertionError(f"screen never showed {text!r}; last screen:\n{self.screen()}")

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
                tmux("send-keys", "-t", self.name, "-l", key)
            else:
                tmux("send-keys", "-t", self.name, key)
            time.sleep(0.05)

    def wait_for_exit(self, timeout=10):
        deadline = time.monotonic() + timeout
        while tmux("has-session", "-t", self.name).returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        return tmux("has-session", "-t", self.name).returncode != 0
