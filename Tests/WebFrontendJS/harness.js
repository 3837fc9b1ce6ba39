// A small test harness for the page's modules, run in headless Chromium by
// Tests/EndToEnd/js_unit_test.py: `test(name, body)` registers a test; `run()` runs them in
// order and publishes the outcome on `window.__results` for the runner to read.

const tests = [];

export function test(name, body) { tests.push({ name, body }); }

export class AssertionError extends Error {}

export function assert(condition, message) {
  if (!condition) throw new AssertionError(message || "assertion failed");
}

export function equal(actual, expected, message) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new AssertionError((message ? message + ": " : "") + "expected " + e + ", got " + a);
}

// A fresh, empty element in the document for a test's DOM.
/** A file the server serves, e.g. the page's own markup (read with XMLHttpRequest: a test may
 * stand in for fetch). */
export function read(path) {
  const request = new XMLHttpRequest();
  request.open("GET", path, false);
  request.send();
  return request.responseText;
}

export function fixture() {
  const container = document.getElementById("fixture");
  container.replaceChildren();
  return container;
}

export async function run() {
  const lines = [];
  let passed = 0, failed = 0;
  for (const { name, body } of tests) {
    try {
      await body();
      passed += 1;
      lines.push("PASS " + name);
    } catch (error) {
      failed += 1;
      lines.push("FAIL " + name + ": " + (error && error.message ? error.message : String(error)));
    }
  }
  window.__results = { passed, failed, lines };
}
