"""Throwaway PostgreSQL servers on 127.0.0.1, through the repository's Tools/local-postgres."""

import os
import subprocess
import tempfile
import urllib.parse

from . import ROOT
from .prerequisites import require_program

LOCAL_POSTGRES = ROOT / "Tools" / "local-postgres"


class LocalPostgres:
    """A server in a folder of its own, which its owner may stop for a while and start again.

    The folder is made directly in the temporary directory, not under pytest's (whose folders
    only their owner may enter): as root, Tools/local-postgres runs the server as the `postgres`
    user, who must reach it."""

    def __init__(self, tool=LOCAL_POSTGRES, folder=None):
        require_program("psql", "postgresql", "the tests start a PostgreSQL server of their own")
        self.tool = str(tool)
        self.folder = folder or tempfile.mkdtemp(prefix="e2e-postgres-")
        self.admin_url = None

    def run(self, verb):
        result = subprocess.run([self.tool, verb, self.folder], capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"local-postgres {verb} {self.folder} failed: {result.stderr.strip()}")
        return result.stdout

    def start(self):
        """Starts the server; its URL (the `postgres` database, as the user `app`). A start that
        fails leaves no server and no folder behind."""
        try:
            self.admin_url = self.run("start").strip().splitlines()[-1]
        except AssertionError:
            subprocess.run([self.tool, "stop", self.folder], capture_output=True)
            raise
        return self.admin_url

    def create_database(self, name):
        """A new database on this server; its URL."""
        subprocess.run(["psql", self.admin_url.split("?")[0], "-v", "ON_ERROR_STOP=1", "-qc",
                        f"CREATE DATABASE {name}"], check=True, capture_output=True, text=True)
        return database_url(self.admin_url, name)

    def pause(self):
        """Stops the server (a fast shutdown: every connection is cut); `resume` restarts it."""
        self.run("pause")

    def resume(self):
        self.run("resume")

    def stop(self):
        """Stops the server and deletes its folder."""
        if os.path.exists(self.folder):
            self.run("stop")


def database_url(url, name):
    """`url` with the database `name` instead of its own."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))
