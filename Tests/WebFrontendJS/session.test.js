import { createSession, isNewer } from "/session.js";
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

// A fake server: answers by method and path, records every request, and an EventSource that
// never opens.
function fakeServer(routes) {
  const requests = [];
  globalThis.fetch = async (path, options = {}) => {
    const method = options.method || "GET";
    requests.push(method + " " + path + (options.body ? " " + options.body : ""));
    const answer = routes[method + " " + path];
    const [status, body] = typeof answer === "function" ? answer(options) : answer || [404, { error: "not found" }];
    return { status, ok: status >= 200 && status < 300, json: async () => body };
  };
  globalThis.EventSource = class {
    static CLOSED = 2;
    constructor(path) {
      requests.push("EVENTS " + path);
      this.readyState = 0;
      this.listeners = {};
      requests.events = this;
    }
    addEventListener(name, listener) { this.listeners[name] = listener; }
    // Delivers a server-sent event to the page.
    emit(name, data) { this.listeners[name]?.({ data: JSON.stringify(data) }); }
    close() { this.readyState = 2; }
  };
  return requests;
}

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
  equal(view.seen.connection, ["reconnecting"]);
  const hiddenBefore = hidden;
  down = false;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert(hidden > hiddenBefore, "the banner stays after the server answered again");
  assert(requests.includes("GET /api/session/state"), requests.join(", "));
  equal(requests[requests.length - 1], "EVENTS /api/session/events");
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
  const hiddenBefore = hidden;
  await session.send({ type: "counter.increment", id: "x" });
  equal(view.seen.banners, [["not saved: the storage refused the write (disk full).", false]]);
  equal(hidden, hiddenBefore);
  requests.events.emit("saved", { revision: 2 });
  equal(hidden, hiddenBefore + 1);
  // Another message (not about saving) is not taken away by a later "saved".
  fakeServer({ "POST /api/session/actions": [429, { error: "Too many actions." }] });
  await session.send({ type: "counter.increment", id: "x" });
  requests.events.emit("saved", { revision: 3 });
  equal(hidden, hiddenBefore + 1);
});
