#!/usr/bin/env python3
"""How many tests passed, read from JUnit XML reports (pytest's `--junitxml`): Tools/test-all's
closing line counts them from here rather than from what pytest prints for people.

    python3 Tests/Tools/junit_passed.py REPORT.xml [REPORT.xml …]    prints the number

A test passed when its <testcase> holds no <failure>, <error> or <skipped>."""

import sys
import xml.etree.ElementTree as ElementTree

NOT_PASSED = {"failure", "error", "skipped"}


def passed(path):
    root = ElementTree.parse(path).getroot()
    return sum(1 for case in root.iter("testcase")
               if not any(child.tag in NOT_PASSED for child in case))


def main(arguments):
    if not arguments:
        print("usage: junit_passed.py REPORT.xml [REPORT.xml …]", file=sys.stderr)
        return 2
    try:
        total = sum(passed(path) for path in arguments)
    except (OSError, ElementTree.ParseError) as error:
        print(f"junit_passed.py: {error}", file=sys.stderr)
        return 1
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
