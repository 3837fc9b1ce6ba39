import { run } from "./harness.js";
import "./dom.test.js";
import "./session.test.js";
import "./search.test.js";
import "./navigation.test.js";
import "./devtools.test.js";
import "./settings.test.js";
import "./episodes.test.js";
import "./keyboard.test.js";

window.addEventListener("error", (event) => {
  window.__results = { passed: 0, failed: 1, lines: ["FAIL loading the tests: " + event.message] };
});
run();
