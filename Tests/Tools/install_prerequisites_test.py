"""Tests of Tools/install-prerequisites, the step of the test command that only a fresh machine
takes. Each case runs the real script with a PATH of stand-ins for apt-get, dpkg-query, sudo, id
and python3 that record their calls and keep a pretend package database in a folder of the test's
own, so every case — everything missing, some missing, nothing missing, policy-rc.d present or
absent, root or sudo, a failing command — runs on every machine, in well under a second, and
changes nothing on it.

    python3 -m pytest Tests/Tools/install_prerequisites_test.py"""

import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "Tools" / "install-prerequisites"
EVERYTHING = ["libsqlite3-dev", "tmux", "chromium", "chromium-driver", "postgresql", "haproxy"]
MODULES = ["pytest", "selenium", "axe_playwright_python"]
# The real programs the script (and the stand-ins) may call. Only these are on the PATH it gets,
# so a sudo or apt-get of the machine running the tests is never reached.
REAL_TOOLS = ["bash", "sh", "env", "mktemp", "tail", "rm", "chmod", "cat", "grep", "printf"]

STANDINS = {
    # dpkg-query -W -f='${db:Status-Status}' PACKAGE: "installed" when the package is listed in
    # the pretend database; otherwise dpkg-query's own complaint and status 1.
    "dpkg-query": r"""
        package="${@: -1}"
        if grep -qx "$package" "$STATE/installed"; then printf installed
        else echo "dpkg-query: no packages found matching $package" >&2; exit 1; fi
    """,
    # Records each call (with whether a policy refusing service starts was in place) and installs
    # the named packages into the pretend database, unless told to fail or to install nothing.
    "apt-get": r"""
        echo "apt-get $* | frontend=${DEBIAN_FRONTEND:-} policy=$( [ -x "$POLICY_RC_D" ] && cat "$POLICY_RC_D" | tail -n 1 )" >>"$STATE/calls"
        [ "$1" = update ] && [ -e "$STATE/fail-update" ] && { echo "E: could not resolve deb.example" >&2; exit 100; }
        if [ "$1" = install ]; then
          [ -e "$STATE/fail-install" ] && { echo "E: Unable to locate package haproxy" >&2; exit 100; }
          [ -e "$STATE/install-nothing" ] && exit 0
          for argument in "$@"; do
            case "$argument" in install | -*) ;; *) echo "$argument" >>"$STATE/installed" ;; esac
          done
        fi
        exit 0
    """,
    "sudo": r"""
        echo "sudo $*" >>"$STATE/calls"
        exec "$@"
    """,
    "id": r"""
        [ "$1" = -u ] && echo "$STANDIN_UID"
    """,
    # python3 -c '<find the module>' MODULE, and python3 -m pip install … REQUIREMENTS (a
    # requirement's module is its name with "_" for "-").
    "python3": r"""
        if [ "$1" = -c ]; then grep -qx "${@: -1}" "$STATE/modules"; exit; fi
        echo "python3 $*" >>"$STATE/calls"
        [ -e "$STATE/fail-pip" ] && { echo "ERROR: No matching distribution found for selenium" >&2; exit 1; }
        for argument in "${@:4}"; do
          case "$argument" in -*) ;; *) echo "${argument//-/_}" >>"$STATE/modules" ;; esac
        done
    """,
}


class Machine:
    """A pretend machine: what is installed, who runs the script, whether sudo exists."""

    def __init__(self, installed=(), modules=(), uid=0, has_sudo=False, policy=None):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="install-prerequisites-test-"))
        self.state = self.folder / "state"
        self.state.mkdir()
        (self.state / "installed").write_text("".join(f"{p}\n" for p in installed))
        (self.state / "modules").write_text("".join(f"{m}\n" for m in modules))
        (self.state / "calls").write_text("")
        self.policy = self.folder / "policy-rc.d"
        if policy is not None:
            self.policy.write_text(policy)
            self.policy.chmod(0o755)
        self.bin = self.folder / "bin"
        self.bin.mkdir()
        for tool in REAL_TOOLS:
            real = shutil.which(tool)
            assert real, f"{tool} is needed to run these tests"
            (self.bin / tool).symlink_to(real)
        for name, body in STANDINS.items():
            if name == "sudo" and not has_sudo:
                continue
            path = self.bin / name
            path.write_text("#!/usr/bin/env bash\n" + textwrap.dedent(body))
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
        self.uid = uid

    def fail(self, what):
        (self.state / f"fail-{what}").write_text("")

    def run(self, *arguments):
        environment = {"PATH": str(self.bin), "STATE": str(self.state), "STANDIN_UID": str(self.uid),
                       "POLICY_RC_D": str(self.policy), "HOME": str(self.folder)}
        return subprocess.run([str(self.bin / "bash"), str(SCRIPT), *arguments], env=environment,
                              capture_output=True, text=True, timeout=60)

    def calls(self):
        return (self.state / "calls").read_text().splitlines()

    def installed(self):
        return set((self.state / "installed").read_text().split())

    def modules(self):
        return set((self.state / "modules").read_text().split())

    def remove(self):
        shutil.rmtree(self.folder, ignore_errors=True)


class InstallPrerequisitesTests(unittest.TestCase):
    def machine(self, **options):
        machine = Machine(**options)
        self.addCleanup(machine.remove)
        return machine

    def assert_succeeded(self, result):
        self.assertEqual(result.returncode, 0, f"stdout: {result.stdout}\nstderr: {result.stderr}")

    def install_calls(self, machine):
        return [call for call in machine.calls() if call.startswith("apt-get install")]

    def test_everything_missing_without_a_policy_installs_all_with_service_starts_refused(self):
        machine = self.machine()
        result = machine.run()
        self.assert_succeeded(result)
        self.assertEqual(machine.installed(), set(EVERYTHING))
        self.assertEqual(machine.modules(), set(MODULES))
        self.assertIn("python3 -m pip install --quiet --disable-pip-version-check --no-deps "
                      "axe-playwright-python", machine.calls())
        calls = machine.calls()
        self.assertTrue(calls[0].startswith("apt-get update"), calls)
        [install] = self.install_calls(machine)
        self.assertIn("frontend=noninteractive", install)
        self.assertIn("policy=exit 101", install, "services could start during the install")
        self.assertFalse(machine.policy.exists(), "the policy the script added was left behind")
        self.assertIn("Installing Debian packages: " + " ".join(EVERYTHING), result.stdout)

    def test_some_missing_with_a_policy_already_present_succeeds_and_keeps_that_policy(self):
        # The machine's own policy-rc.d stays as it was, and the script still exits 0 (it used to
        # exit 1 here, with no message, right after a successful install).
        machine = self.machine(installed=["libsqlite3-dev", "tmux", "postgresql"],
                               policy="#!/bin/sh\n# the machine's own\nexit 101\n")
        result = machine.run()
        self.assert_succeeded(result)
        [install] = self.install_calls(machine)
        self.assertIn("install -y -qq --no-install-recommends chromium chromium-driver haproxy |", install)
        self.assertEqual(machine.installed(), set(EVERYTHING))
        self.assertEqual(machine.policy.read_text(), "#!/bin/sh\n# the machine's own\nexit 101\n")

    def test_nothing_missing_calls_no_package_manager(self):
        machine = self.machine(installed=EVERYTHING, modules=MODULES)
        result = machine.run()
        self.assert_succeeded(result)
        self.assertEqual(machine.calls(), [])
        self.assertEqual(result.stdout, "")

    def test_not_root_goes_through_sudo(self):
        machine = self.machine(installed=EVERYTHING[:-1], modules=MODULES, uid=1000, has_sudo=True)
        result = machine.run()
        self.assert_succeeded(result)
        apt_calls = [call for call in machine.calls() if "apt-get" in call]
        self.assertTrue(apt_calls)
        for call in apt_calls:
            if call.startswith("apt-get"):
                continue
            self.assertTrue(call.startswith("sudo "), call)
        self.assertIn("sudo apt-get update -qq", machine.calls())
        self.assertIn("haproxy", machine.installed())
        self.assertFalse(machine.policy.exists())

    def test_not_root_without_sudo_says_it_needs_root(self):
        machine = self.machine(installed=EVERYTHING[:-1], uid=1000)
        result = machine.run()
        self.assertEqual(result.returncode, 1)
        self.assertIn("installing haproxy needs root: run as root, or install sudo", result.stderr)
        self.assertEqual(machine.calls(), [])

    def test_a_failing_install_names_the_step_and_the_command_and_removes_the_policy(self):
        machine = self.machine(installed=["libsqlite3-dev"])
        machine.fail("install")
        result = machine.run()
        self.assertEqual(result.returncode, 1)
        self.assertIn("E: Unable to locate package haproxy", result.stderr)
        self.assertIn("install-prerequisites: installing tmux chromium chromium-driver postgresql haproxy "
                      "failed: `env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                      "--no-install-recommends tmux chromium chromium-driver postgresql haproxy` "
                      "exited with status 100", result.stderr)
        self.assertFalse(machine.policy.exists(), "the policy the script added was left behind")

    def test_a_failing_update_names_the_step(self):
        machine = self.machine(policy="#!/bin/sh\nexit 101\n")
        machine.fail("update")
        result = machine.run()
        self.assertEqual(result.returncode, 1)
        self.assertIn("updating the package lists failed: `apt-get update -qq` exited with status 100",
                      result.stderr)
        self.assertTrue(machine.policy.exists(), "the machine's own policy was removed")

    def test_an_install_that_installs_nothing_is_a_failure(self):
        machine = self.machine(installed=EVERYTHING[:-1])
        (machine.state / "install-nothing").write_text("")
        result = machine.run()
        self.assertEqual(result.returncode, 1)
        self.assertIn("apt-get reported success but haproxy is not installed", result.stderr)

    def test_a_failing_pip_names_the_step(self):
        # pytest is there (Tools/test-all installs it first), so selenium is the first install.
        machine = self.machine(installed=EVERYTHING, modules=["pytest"])
        machine.fail("pip")
        result = machine.run()
        self.assertEqual(result.returncode, 1)
        self.assertIn("installing selenium with pip failed: `python3 -m pip install --quiet "
                      "--disable-pip-version-check selenium` exited with status 1", result.stderr)
        self.assertNotIn("axe-playwright-python", result.stdout, "it went on after a failure")

    def test_build_only_installs_the_sqlite_headers_and_nothing_else(self):
        machine = self.machine()
        result = machine.run("--build")
        self.assert_succeeded(result)
        self.assertEqual(machine.installed(), {"libsqlite3-dev"})
        self.assertEqual(machine.modules(), set())

    def test_an_unknown_argument_is_refused(self):
        machine = self.machine()
        result = machine.run("--everything")
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage:", result.stderr)
        self.assertEqual(machine.calls(), [])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, *sys.argv[1:]]))
