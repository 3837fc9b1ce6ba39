import { createSession, isNewer, parseEvents, retryDelay } from "/session.js";
import { equal, test, assert } from "./harness.js";

test("a newer revision of the same generation replaces the state; an older one does not", () => {
  const current = { generation: "g1", revision: 5 };
  assert(isNewer(current, { generation: "g1", revision: 6 }));
  assert(isNewer(current, { generation: "g1", revision: 5 }), "the same revision again is shown");
  assert(!isNewer(current, { generation: "g1", revision: 4 }));
  assert(!isNewer(current, null));
});

test("a resumed session (a new generation) is accepted even with lower revisions", () => {
  assert(isNewer({ generation: "g1", revision: 40 }, { generation: "g2", revision: 1 }));
});

// A fake server: answers by method and path, records every request (the event stream as
// "EVENTS path"), and keeps the last event stream open, for the test to send events on
// (`requests.events.emit(name, data)`). `routes["EVENTS"]` may refuse streams: a function
// returning [status, retryAfter] or null to open one.
function fakeServer(routes) {
  const requests = [];
  const encoder = new TextEncoder();
  globalThis.fetch = async (path, options = {}) => {
    const method = options.method || "GET";
    if (path === "/api/session/events") {
      requests.push("EVENTS " + path);
      const refusal = routes["EVENTS"]?.();
      if (refusal) {
        const [status, retryAfter] = refusal;
        return { status, ok: false, headers: new Headers(retryAfter == null ? {} : { "Retry-After": String(retryAfter) }), json: async () => ({ error: "refused" }) };
      }
      let controller;
      const body = new ReadableStream({ start(c) { controller = c; } });
      options.signal?.addEventListener("abort", () => { try { controller.error(new DOMException("aborted", "AbortError")); } catch {} });
      requests.events = {
        emit(name, data) { controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)); },
        end() { controller.close(); },
      };
      return { status: 200, ok: true, headers: new Headers({ "Content-Type": "text/event-stream" }), body };
    }
    requests.push(method + " " + path + (options.body ? " " + options.body : ""));
    const answer = routes[method + " " + path];
    const [status, body] = typeof answer === "function" ? answer(options) : answer || [404, { error: "not found" }];
    return { status, ok: status >= 200 && status < 300, headers: new Headers(), json: async () => body };
  };
  return requests;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function recordingView() {
  const seen = { states: [], banners: [], connection: [] };
  return {
    seen,
    state: (s) => seen.states.push(s),
    banner: (message, canRestart) => seen.banners.push([message, canRestart]),
    hideBanner: () => {},
    connection: (text) => seen.connection.push(text),
  };
}

test("start asks once for the browser's session or a new one, shows its state and listens", async () => {
  const requests = fakeServer({
    "POST /api/session": [201, { generation: "g", revision: 1, state: { header: "Composable App" } }],
  });
  const view = recordingView();
  await createSession(view).start();
  equal(requests, ["POST /api/session", "EVENTS /api/session/events"]);
  equal(view.seen.states, [{ header: "Composable App" }]);
});

test("actions are sent one after the other, and an older answer does not replace a newer state", async () => {
  let revision = 1;
  const requests = fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "POST /api/session/actions": () => { revision += 1; return [200, { generation: "g", revision, state: { n: revision } }]; },
  });
  const view = recordingView();
  const session = createSession(view);
  await session.start();
  session.send({ type: "counter.add" });
  await session.send({ type: "counter.increment", id: "x" });
  equal(requests.slice(2), [
    'POST /api/session/actions {"type":"counter.add"}',
    'POST /api/session/actions {"type":"counter.increment","id":"x"}',
  ]);
  equal(view.seen.states.map((s) => s.n), [1, 2, 3]);
});

test("an action on an expired session says so and offers a new one", async () => {
  fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: {} }],
    "POST /api/session/actions": [404, { error: "no such session" }],
  });
  const view = recordingView();
  const session = createSession(view);
  await session.start();
  await session.send({ type: "counter.add" });
  equal(view.seen.banners, [["This session has expired.", true]]);
});

test("a refused action shows the server's message and keeps the session", async () => {
  fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: {} }],
    "POST /api/session/actions": [429, { error: "Too many actions; try again in 1 s." }],
  });
  const view = recordingView();
  const session = createSession(view);
  await session.start();
  await session.send({ type: "counter.add" });
  equal(view.seen.banners, [["Too many actions; try again in 1 s.", false]]);
});

test("an action the server never got says it was not saved, and the message goes once it answers", async () => {
  let down = false;
  const requests = fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "GET /api/session/state": [200, { generation: "g", revision: 1, state: { n: 1 } }],
  });
  const answer = globalThis.fetch;
  globalThis.fetch = (path, options) => down ? Promise.reject(new TypeError("Failed to fetch")) : answer(path, options);
  const view = recordingView();
  let hidden = 0;
  view.hideBanner = () => { hidden += 1; };
  const session = createSession(view);
  await session.start();
  down = true;
  await session.send({ type: "counter.increment", id: "x" });
  equal(view.seen.banners, [["Cannot reach the server. Your last change was not saved; reconnecting…", false]]);
  // Live once its stream opened, then reconnecting (and still so after the first try failed).
  equal(view.seen.connection[0], "live");
  assert(view.seen.connection.length >= 2 && view.seen.connection.slice(1).every((c) => c === "reconnecting"),
    view.seen.connection.join(", "));
  const hiddenBefore = hidden;
  down = false;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert(hidden > hiddenBefore, "the banner stays after the server answered again");
  assert(requests.includes("GET /api/session/state"), requests.join(", "));
  equal(requests[requests.length - 1], "EVENTS /api/session/events");
  session.stop();
});

test("a change the storage refused says 'not saved' until the server reports it saved", async () => {
  const requests = fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "POST /api/session/actions": [503, { error: "not saved: the storage refused the write (disk full)." }],
  });
  const view = recordingView();
  let hidden = 0;
  view.hideBanner = () => { hidden += 1; };
  const session = createSession(view);
  await session.start();
  await pause(20);
  const hiddenBefore = hidden;
  await session.send({ type: "counter.increment", id: "x" });
  equal(view.seen.banners, [["not saved: the storage refused the write (disk full).", false]]);
  equal(hidden, hiddenBefore);
  requests.events.emit("saved", { revision: 2 });
  await pause(20);
  equal(hidden, hiddenBefore + 1);
  // Another message (not about saving) is not taken away by a later "saved".
  fakeServer({ "POST /api/session/actions": [429, { error: "Too many actions." }] });
  await session.send({ type: "counter.increment", id: "x" });
  requests.events.emit("saved", { revision: 3 });
  await pause(20);
  equal(hidden, hiddenBefore + 1);
});

test("an event stream's text splits into its events; keep-alives and partial events wait", () => {
  const { events, rest } = parseEvents(': keep-alive\n\nevent: state\ndata: {"n":1}\n\nevent: saved\ndata: {}\n\nevent: sta');
  equal(events, [{ name: "state", data: '{"n":1}' }, { name: "saved", data: "{}" }]);
  equal(rest, "event: sta");
});

test("the wait before the next try grows with failures, is at least Retry-After, and is jittered", () => {
  equal([0, 1, 2, 3, 10].map((n) => retryDelay(n, null, () => 0.5)), [500, 1000, 2000, 4000, 30000]);
  equal(retryDelay(0, null, () => 0), 250);
  equal(retryDelay(0, null, () => 0.999), 750);
  equal(retryDelay(0, "5", () => 0), 5000);
  equal(retryDelay(9, "5", () => 0.999), 7498);
  equal(retryDelay(0, "soon", () => 0.5), 500, "an unreadable Retry-After is ignored");
});

test("a refused event stream is tried again after its Retry-After, not at once", async () => {
  let refusals = 0;
  const requests = fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "GET /api/session/state": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "EVENTS": () => (refusals++ < 1 ? [429, "1"] : null),
  });
  const view = recordingView();
  const session = createSession(view);
  await session.start();
  await pause(600);
  equal(requests.filter((r) => r.startsWith("EVENTS")).length, 1, "asked again before Retry-After");
  equal(view.seen.connection, ["reconnecting"]);
  await pause(1200);
  equal(requests.filter((r) => r.startsWith("EVENTS")).length, 2);
  equal(view.seen.connection, ["reconnecting", "live"]);
  session.stop();
});

test("streams refused without Retry-After are asked for less and less often", async () => {
  const requests = fakeServer({
    "POST /api/session": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "GET /api/session/state": [200, { generation: "g", revision: 1, state: { n: 1 } }],
    "EVENTS": () => [429, null],
  });
  const session = createSession(recordingView());
  await session.start();
  await pause(2000);
  // 0.25–0.75 s, then 0.5–1.5 s, then 1–3 s: at most 3 tries in 2 s (a storm would be hundreds).
  const tries = requests.filter((r) => r.startsWith("EVENTS")).length;
  assert(tries >= 2 && tries <= 4, `${tries} tries in 2 s`);
  session.stop();
  await pause(3500);
  equal(requests.filter((r) => r.startsWith("EVENTS")).length, tries, "a stopped session asks no more");
});
