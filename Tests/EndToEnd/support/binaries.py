"""The executables under test: those of the folder APP_BIN_DIR names when it is set (a build
made elsewhere, with the `*.resources` bundles beside them), else this checkout's debug build,
where a missing one is built (`swift build --product NAME`) the first time a test asks for it."""

import os
import pathlib
import subprocess

import pytest

from . import ROOT

DEFAULT_FOLDER = ROOT / ".build" / "debug"
# Variables that name one executable, kept for the commands and habits that set them: they win
# over the folder for that executable.
OVERRIDES = {"app-server": ("APP_SERVER_BINARY", "APP_SERVER")}


class Binaries:
    def __init__(self, environment=os.environ):
        given = environment.get("APP_BIN_DIR")
        self.folder = pathlib.Path(given).resolve() if given else DEFAULT_FOLDER
        # A folder given by the caller is theirs: nothing is built into it.
        self.builds = not given
        self.environment = environment
        self.found = {}

    def path(self, name):
        """The executable `name` (`app-cli`, `counter-preview`, …)."""
        if name not in self.found:
            self.found[name] = self.locate(name)
        return self.found[name]

    def locate(self, name):
        for variable in OVERRIDES.get(name, ()):
            if self.environment.get(variable):
                path = pathlib.Path(self.environment[variable]).resolve()
                if not os.access(path, os.X_OK):
                    pytest.fail(f"{variable}={path}: no executable file there", pytrace=False)
                return path
        path = self.folder / name
        if path.exists():
            return path
        if not self.builds:
            pytest.fail(f"APP_BIN_DIR={self.folder} has no {name} (built by `swift build "
                        f"--product {name}`)", pytrace=False)
        print(f"{path} is missing: swift build --product {name}", flush=True)
        subprocess.run(["swift", "build", "--product", name], cwd=ROOT, check=True)
        return path

    @property
    def app_cli(self):
        return self.path("app-cli")

    @property
    def app_server(self):
        return self.path("app-server")

    @property
    def preview_server(self):
        return self.path("preview-server")
