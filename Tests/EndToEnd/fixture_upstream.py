"""A fixture upstream for the end-to-end tests: Open-Meteo, number trivia and random numbers on
127.0.0.1, answering from the recorded responses checked into Tests/WeatherClientLiveTests (a place search
for a name starting with "fail" answers 500)."""

import http.server
import json
import pathlib
import threading
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "WeatherClientLiveTests" / "Fixtures"


class Handler(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_GET(self):  # noqa: N802 (http.server's naming)
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        Handler.requests.append(self.path)
        if url.path == "/v1/search":
            name = query.get("name", [""])[0]
            if name.lower().startswith("fail"):
                self.reply(500, b'{"error":true,"reason":"fixture failure"}', "application/json")
                return
            fixture = "geocoding-london.json" if name.lower().startswith("lon") else "geocoding-no-match.json"
            self.reply(200, (FIXTURES / fixture).read_bytes(), "application/json")
        elif url.path == "/v1/forecast":
            self.reply(200, (FIXTURES / "forecast-norwich-8d.json").read_bytes(), "application/json")
        elif url.path.endswith("/trivia"):
            number = url.path.strip("/").split("/")[0]
            self.reply(200, f"{number} is the answer.".encode(), "text/plain")
        elif url.path == "/api/v1.0/random":
            self.reply(200, b"[7]", "application/json")
        else:
            self.reply(404, b"not found", "text/plain")

    def reply(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start():
    """Starts the server on a free port; returns (server, base_url)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def forecast_fixture():
    return json.loads((FIXTURES / "forecast-norwich-8d.json").read_text())
