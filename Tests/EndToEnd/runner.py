"""The loop the end-to-end files share: every `test_*` function of a module, in the order it is
written, each reported as PASS or FAIL (with its traceback), then the count."""

import traceback


def run_tests(namespace, *arguments):
    """Runs every `test_*` function of `namespace` (a module's `globals()`) with `arguments`;
    returns the exit status: 1 if one failed, else 0."""
    tests = [value for name, value in namespace.items() if name.startswith("test_")]
    passed = failed = 0
    for test in tests:
        try:
            test(*arguments)
            passed += 1
            print(f"PASS {test.__name__}", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL {test.__name__}", flush=True)
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0
