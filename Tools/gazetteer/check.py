#!/usr/bin/env python3
"""Sanity-check gazetteer.tsv and try prefix queries against it.

    python3 Tools/gazetteer/check.py                 # format checks + default queries
    python3 Tools/gazetteer/check.py seo "sao paulo" # your own queries

A place matches a query when its name or one of its alternates starts with the
query after case and accent folding; matches are ranked by population (the
file is already sorted that way). This mirrors the simplest lookup the Swift
client can do; it needs nothing outside the standard library.
"""

from __future__ import annotations

import os
import sys
import unicodedata

TSV = os.path.join(
    os.path.dirname(__file__), "..", "..", "Modules", "Clients",
    "WeatherClientOffline", "Resources", "gazetteer.tsv",
)
DEFAULT_QUERIES = ["seo", "sao paulo", "zurich", "서울"]


def fold(text: str) -> str:
    """Case-fold and drop accents on Latin, Greek and Cyrillic letters (marks
    in other scripts, such as Japanese dakuten, change the word and stay)."""
    out = []
    base = ""
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if base and (ord(base) < 0x0530 or 0x1E00 <= ord(base) <= 0x1FFF):
                continue
        else:
            base = ch
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out)).casefold()


def load(path: str):
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        data = fh.read()
    assert data.endswith("\n") and "\r" not in data, "line endings"
    lines = data.split("\n")[:-1]
    assert lines[0].startswith("#"), "header line"
    last_pop = None
    ids = set()
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        assert len(fields) == 10, f"line {number}: {len(fields)} fields"
        gid, name, lat, lon, country, cc, admin1, pop, tz, alts = fields
        assert gid.isdigit() and gid not in ids, f"line {number}: geonameid"
        ids.add(gid)
        assert name and country and len(cc) == 2 and ("/" in tz or tz == "UTC"), f"line {number}"
        for coord, limit in ((lat, 90), (lon, 180)):
            assert len(coord.partition(".")[2]) <= 4 and abs(float(coord)) <= limit
        assert pop.isdigit() and (last_pop is None or int(pop) <= last_pop), f"line {number}: order"
        last_pop = int(pop)
        names = [name] + (alts.split("|") if alts else [])
        assert all(n and not unicodedata.combining(n[0]) for n in names), f"line {number}"
        assert name not in names[1:] and len(set(names)) == len(names), f"line {number}: dupes"
        rows.append((gid, name, country, cc, admin1, int(pop), tz, names))
    return rows


def search(rows, query: str, limit: int = 5):
    q = fold(query)
    hits = []
    for row in rows:
        matched = next((n for n in row[7] if fold(n).startswith(q)), None)
        if matched is not None:
            hits.append((row, matched))
            if len(hits) == limit:
                break
    return hits


def main(argv: list[str]) -> int:
    rows = load(TSV)
    size = os.path.getsize(TSV)
    print(f"{len(rows)} places, {size:,} bytes, format OK")
    for query in argv or DEFAULT_QUERIES:
        print(f"\n{query!r}:")
        for (gid, name, country, cc, admin1, pop, tz, _), via in search(rows, query):
            where = ", ".join(p for p in (admin1, country) if p)
            extra = "" if via == name else f"  [via {via!r}]"
            print(f"  {name} ({where}) pop {pop:,} {tz}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
