"""Tools/test-module: one module's tests in a package derived from the root manifest.

Checks, with real builds: a feature's tests run alone and all of them run (their count is the
number of `@Test` functions in the test target's folder); a client whose tests read bundled
resources and a file beside their own source passes the same way; an unknown module is refused
with the list of test targets; and, in a miniature repository (a copy of the tool beside a
manifest of one library and one test target), a failing test makes the tool fail and a fixed one
makes it pass — so its exit status is `swift test`'s.

Every check but the refusal builds a package of its own (minutes each on 2 cores: marked
`builds`).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "Tools" / "test-module"


def run_tool(*arguments, cwd=ROOT, tool=TOOL, env=None):
    return subprocess.run(
        [str(tool), *arguments], cwd=cwd, capture_output=True, text=True, timeout=3600, env=env)


def tests_declared(folder: Path) -> int:
    return sum(
        len(re.findall(r"@Test\b", path.read_text())) for path in folder.rglob("*.swift"))


def tests_run(output: str) -> int:
    match = re.search(r"Test run with (\d+) tests? in \d+ suites? passed", output)
    assert match, f"no passing Swift Testing run in the output:\n{output[-3000:]}"
    return int(match.group(1))


def check_module(module: str, test_target: str):
    result = run_tool(module)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"test-module {module} failed:\n{output[-3000:]}"
    declared = tests_declared(ROOT / "Tests" / test_target)
    assert declared > 0
    assert tests_run(output) == declared, (tests_run(output), declared)
    manifest = (ROOT / ".build" / "test-module" / test_target / "Package.swift").read_text()
    # Only the closure: no server, no storage.
    for heavy in ("hummingbird", "postgres-nio", "GRDB", "swift-nio\""):
        assert heavy not in manifest, f"{heavy} in the derived manifest of {test_target}"


@pytest.mark.builds
def test_a_features_tests_run_alone_and_all_of_them():
    check_module("CounterFeature", "CounterFeatureTests")


@pytest.mark.builds
def test_bundled_resources_and_files_beside_the_source_are_found():
    check_module("WeatherClientOffline", "WeatherClientOfflineTests")


def test_an_unknown_module_is_refused_with_the_test_targets():
    result = run_tool("NoSuchFeature")
    assert result.returncode == 2, result
    assert "no test target named NoSuchFeature or NoSuchFeatureTests" in result.stderr
    assert "CounterFeatureTests" in result.stderr
    misspelt = run_tool("CounterFeatur")
    assert misspelt.returncode == 2, misspelt
    assert "(did you mean CounterFeature?)" in misspelt.stderr, misspelt.stderr


@pytest.mark.builds
def test_its_exit_status_is_the_tests():
    with tempfile.TemporaryDirectory() as directory:
        repo = Path(directory)
        (repo / "Tools").mkdir()
        shutil.copy(TOOL, repo / "Tools" / "test-module")
        (repo / "Package.swift").write_text(
            "// swift-tools-version: 6.1\n"
            "import PackageDescription\n"
            "let package = Package(\n"
            "  name: \"Mini\",\n"
            "  targets: [\n"
            "    .target(name: \"Adder\", path: \"Modules/Adder\"),\n"
            "    .target(name: \"Unrelated\", path: \"Modules/Unrelated\"),\n"
            "    .testTarget(name: \"AdderTests\", dependencies: [\"Adder\"], path: \"Tests/AdderTests\"),\n"
            "  ]\n"
            ")\n")
        (repo / "Modules" / "Adder").mkdir(parents=True)
        (repo / "Modules" / "Unrelated").mkdir(parents=True)
        (repo / "Tests" / "AdderTests").mkdir(parents=True)
        adder = repo / "Modules" / "Adder" / "Adder.swift"
        adder.write_text("public func add(_ a: Int, _ b: Int) -> Int { a - b }\n")
        # A module outside the closure that does not even compile: the derived package must not
        # build it.
        (repo / "Modules" / "Unrelated" / "Broken.swift").write_text("let broken: Int = \"\"\n")
        (repo / "Tests" / "AdderTests" / "AdderTests.swift").write_text(
            "import Adder\nimport Testing\n"
            "@Test func addsTwoNumbers() { #expect(add(2, 3) == 5) }\n")
        tool = repo / "Tools" / "test-module"
        failing = run_tool("Adder", cwd=repo, tool=tool)
        assert failing.returncode != 0, failing.stdout[-2000:]
        assert "addsTwoNumbers" in failing.stdout + failing.stderr
        adder.write_text("public func add(_ a: Int, _ b: Int) -> Int { a + b }\n")
        passing = run_tool("Adder", cwd=repo, tool=tool)
        output = passing.stdout + passing.stderr
        assert passing.returncode == 0, output[-3000:]
        assert tests_run(output) == 1
        manifest = (repo / ".build" / "test-module" / "AdderTests" / "Package.swift").read_text()
        assert "Unrelated" not in manifest


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
