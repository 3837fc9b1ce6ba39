// The developer panel (opened with ?devtools in the address, or Alt+Shift+D): records this
// visitor's own session on a server started with --allow-recording, lists each recorded action
// with the changes it made, and downloads the record or the TestStore test written from it. It
// knows no feature: it shows the record as the server writes it.

const api = "/api/session/recording";
const shownSteps = 200;

// A recorded value (see docs/recording.md) as short Swift-like text.
export function describe(value, depth = 0) {
  if (value === null) return "nil";
  if (typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (depth > 1) return `[…${value.length}]`;
    return `[${value.map((item) => describe(item, depth + 1)).join(", ")}]`;
  }
  const [tag, tagged] = Object.entries(value)[0] ?? [];
  const rest = Object.entries(value).slice(1);
  const fields = () =>
    rest.map(([label, item]) => (label.startsWith("$") ? "" : `${label}: `) + describe(item, depth + 1)).join(", ");
  switch (tag) {
    case "$case": return rest.length ? `.${tagged}(${fields()})` : `.${tagged}`;
    case "$state": case "$struct": return depth > 1 ? `${tagged}(…)` : `${tagged}(${fields()})`;
    case "$uuid": return `UUID(${tagged.slice(0, 8)}…)`;
    case "$shared": case "$sharedReader": return describe(tagged, depth);
    case "$identified": return depth > 1 ? `[…${tagged.length}]` : describe(tagged, depth);
    case "$stack": return `StackState(${tagged.length})`;
    case "$binding": return `.set(\\.${tagged}, ${describe(value.value, depth + 1)})`;
    case "$text": return JSON.stringify(tagged);
    case "$alert": return `${tagged}(${JSON.stringify(value.title)})`;
    case "$error": return `${tagged}(${JSON.stringify(value.description)})`;
    case "$seconds": return `.seconds(${tagged})`;
    case "$date": return `Date(${tagged})`;
    default: return `${tag}(…)`;
  }
}

// The path of a change: `.counterList.counters[id: UUID(…)].count`.
export function describePath(path) {
  return path.map((part) => (typeof part === "string" ? `.${part}` : `[id: ${describe(part.id)}]`)).join("") || "state";
}

// The steps of a record (JSON Lines), oldest first.
export function steps(record) {
  return record.split("\n").filter((line) => line.startsWith('{"step"')).map((line) => JSON.parse(line));
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// Opens the panel (again); returns what refreshes it, which the page calls with every state.
export function open() {
  const existing = document.getElementById("devtools");
  if (existing) { existing.hidden = false; return existing.refresh; }
  const status = element("p", { id: "devtools-status", role: "status" });
  const toggle = element("button", { class: "act", id: "devtools-toggle", type: "button" }, "Start recording");
  const record = element("a", { class: "act", id: "devtools-record", href: `${api}/record`, download: "session.jsonl" }, "Download record");
  const test = element("a", { class: "act", id: "devtools-test", href: `${api}/test`, download: "RecordedSessionTests.swift" }, "Download as test");
  const close = element("button", { class: "act", type: "button", "aria-label": "Close the developer panel" }, "×");
  const list = element("ol", { id: "devtools-steps" });
  const panel = element("aside", { id: "devtools", "aria-label": "Developer panel" },
    element("div", { class: "row" }, element("h2", {}, "Recording"), close),
    status, element("div", { class: "row" }, toggle, record, test), list);
  document.body.append(panel);

  let recording = false;
  let pending = null;
  // The last steps shown, and the number of the last step read: each refresh asks only for
  // the steps after it (and never for more than are shown).
  let shown = [];
  let read = 0;
  async function refresh() {
    const response = await fetch(api);
    const body = await response.json().catch(() => ({}));
    // Fewer steps than read: the recording started over.
    if (!response.ok || !body.recording || body.steps < read) { shown = []; read = 0; }
    // The new steps are read before anything is shown, so the status and the steps agree.
    if (response.ok && body.recording && body.steps > read) {
      const more = await fetch(`${api}/steps?after=${Math.max(read, body.steps - shownSteps)}`);
      // Two refreshes may overlap: a step already read is not added again.
      const fresh = more.ok ? steps(await more.text()).filter((step) => step.step > read) : [];
      if (fresh.length) {
        shown = shown.concat(fresh).slice(-shownSteps);
        read = fresh[fresh.length - 1].step;
      }
    }
    if (!response.ok) {
      status.textContent = body.error ?? `The server answered ${response.status}.`;
      toggle.disabled = true;
      record.hidden = test.hidden = true;
      return;
    }
    recording = body.recording;
    toggle.disabled = false;
    toggle.textContent = recording ? "Stop recording" : "Start recording";
    record.hidden = test.hidden = !recording;
    status.textContent = recording
      ? `Recording: ${body.steps} of at most ${body.limit} steps${body.full ? " — full, later steps are not kept" : ""}.`
      : "Not recording. Only your own session is recorded; the record stays on the server until this session ends or recording stops.";
    if (!recording) { list.replaceChildren(); return; }
    // Past the shown steps, the list numbers its items as the record does.
    list.start = shown.length ? shown[0].step : 1;
    list.replaceChildren(...shown.map((step) =>
      element("li", { "data-step": String(step.step) },
        element("span", { class: "muted" }, `${step.by === "user" ? "sent" : "received"} `),
        element("code", {}, describe(step.action)),
        element("ul", {}, ...step.changes.map((change) =>
          element("li", {}, element("code", {}, `${describePath(change.path)} = ${describe(change.value)}`)))))));
  }
  // Many states in a row (a timer) refresh the panel once.
  function schedule() {
    if (pending) return;
    pending = setTimeout(async () => { pending = null; await refresh(); }, 150);
  }
  toggle.addEventListener("click", async () => {
    await fetch(api, { method: recording ? "DELETE" : "POST" });
    await refresh();
  });
  close.addEventListener("click", () => { panel.hidden = true; });
  panel.refresh = schedule;
  return schedule;
}
