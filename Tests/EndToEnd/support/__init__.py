"""What the end-to-end tests share: the executables under test, the services they start on
127.0.0.1 (app-server, preview-server, the fixture upstreams, PostgreSQL, HAProxy, a tmux server
of their own, headless Chromium) and the ways they read them. Test files import from here, never
from each other; `conftest.py` turns these into fixtures."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
