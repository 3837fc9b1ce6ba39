"""Tests of junit_passed.py, which gives Tools/test-all the number of tests that passed."""

import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).with_name("junit_passed.py")

# What pytest writes for a test that passed, failed, errored, was skipped, and passed with output.
REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="end-to-end" errors="1" failures="1" skipped="1" tests="5">
<testcase classname="cli_test" name="test_fact_json" time="0.1" />
<testcase classname="cli_test" name="test_search_json" time="0.1"><failure message="assert 1 == 2">…</failure></testcase>
<testcase classname="cli_test" name="test_random_json" time="0.1"><error message="failed on setup">…</error></testcase>
<testcase classname="cli_test" name="test_help" time="0.0"><skipped type="pytest.skip" message="why">…</skipped></testcase>
<testcase classname="cli_test" name="test_version" time="0.1"><system-out>1.0</system-out></testcase>
</testsuite></testsuites>
"""


def count(*arguments):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, arguments)],
                          capture_output=True, text=True, timeout=30)


@pytest.fixture
def report(tmp_path):
    path = tmp_path / "report.xml"
    path.write_text(REPORT)
    return path


def test_only_test_cases_without_a_failure_an_error_or_a_skip_count(report):
    result = count(report)
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


def test_several_reports_add_up(report):
    assert count(report, report).stdout == "4\n"


def test_a_report_that_is_missing_or_not_xml_is_an_error_that_names_it(tmp_path):
    missing = count(tmp_path / "missing.xml")
    assert missing.returncode == 1 and "missing.xml" in missing.stderr, missing
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuites>")
    refused = count(broken)
    assert refused.returncode == 1 and refused.stdout == "", refused
    assert "junit_passed.py: " in refused.stderr, refused


def test_without_a_report_it_says_how_to_call_it():
    result = count()
    assert result.returncode == 2 and result.stderr.startswith("usage: "), result
