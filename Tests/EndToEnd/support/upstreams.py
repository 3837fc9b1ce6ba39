"""Fixture upstreams: the services the executables call (Open-Meteo's geocoding and forecast,
number trivia, random numbers) as HTTP servers on 127.0.0.1 that answer from the recorded
responses checked into the repository."""

import http.server
import json
import re
import threading
import urllib.parse

from . import ROOT

WEATHER_FIXTURES = ROOT / "Tests" / "WeatherClientLiveTests" / "Fixtures"
WEB_FIXTURES = ROOT / "Tests" / "WebFrontendTests" / "Fixtures"


class Answers(http.server.BaseHTTPRequestHandler):
    def reply(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


class WeatherAnswers(Answers):
    """The fixtures of Tests/WeatherClientLiveTests: London's places, Norwich's 8-day forecast,
    "N is the answer.", the random number 7; a place search for a name starting with "fail"
    answers 500."""

    def do_GET(self):  # noqa: N802 (http.server's naming)
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/v1/search":
            name = query.get("name", [""])[0]
            if name.lower().startswith("fail"):
                self.reply(500, b'{"error":true,"reason":"fixture failure"}', "application/json")
                return
            fixture = "geocoding-london.json" if name.lower().startswith("lon") else "geocoding-no-match.json"
            self.reply(200, (WEATHER_FIXTURES / fixture).read_bytes(), "application/json")
        elif url.path == "/v1/forecast":
            self.reply(200, (WEATHER_FIXTURES / "forecast-norwich-8d.json").read_bytes(),
                       "application/json")
        elif url.path.endswith("/trivia"):
            number = url.path.strip("/").split("/")[0]
            self.reply(200, f"{number} is the answer.".encode(), "text/plain")
        elif url.path == "/api/v1.0/random":
            self.reply(200, b"[7]", "application/json")
        else:
            self.reply(404, b"not found", "text/plain")


class WebAnswers(Answers):
    """The fixtures of Tests/WebFrontendTests: London's and Berlin's places, the equator's 7-day
    forecast, "N is the number of the fixture server."."""

    def do_GET(self):  # noqa: N802 (http.server's naming)
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/v1/search":
            name = (query.get("name") or [""])[0].lower()
            fixture = {"london": "geocoding-london.json",
                       "berlin": "geocoding-berlin-single.json"}.get(name, "geocoding-no-match.json")
            self.reply(200, (WEB_FIXTURES / fixture).read_bytes(), "application/json")
        elif url.path == "/v1/forecast":
            self.reply(200, (WEB_FIXTURES / "forecast-equator-7d.json").read_bytes(),
                       "application/json")
        elif re.fullmatch(r"/-?\d+/trivia", url.path):
            number = url.path.split("/")[1]
            self.reply(200, f"{number} is the number of the fixture server.".encode(), "text/plain")
        else:
            self.reply(404, b"not found", "text/plain")


class Upstream:
    """One fixture upstream on a free port: `with Upstream(WeatherAnswers) as url: …`."""

    def __init__(self, answers):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), answers)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exception):
        self.server.shutdown()
        self.server.server_close()


def upstream_flags(base):
    """The flags that point every service of app-cli or app-server at `base`."""
    return ["--geocoding-url", base, "--forecast-url", base, "--fact-url", base,
            "--random-url", base]


def forecast_fixture():
    """The forecast WeatherAnswers serves, parsed."""
    return json.loads((WEATHER_FIXTURES / "forecast-norwich-8d.json").read_text())
