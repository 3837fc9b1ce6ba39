// The transport: the visitor's session on the server, its state as the server last sent it,
// and the actions the page sends. No logic of the app lives here; the server's reducers decide.

// Whether `snapshot` replaces what the page shows (`current`: its generation and revision). A
// session resumed elsewhere (a restarted or another server) starts a new generation, whose
// revisions are compared among themselves only.
export function isNewer(current, snapshot) {
  if (!snapshot) return false;
  return !(snapshot.generation === current.generation && snapshot.revision < current.revision);
}

// The session id lives in an HttpOnly cookie the browser sends with every API request.
const api = (path) => "/api/session" + path;

// How long to wait before the next try after `attempt` failures in a row (from 0), in ms: at
// least the server's `Retry-After` (seconds) when it sent one, else 0.5 s doubling up to 30 s —
// with jitter (`random()` in [0, 1)), so that pages refused together do not come back together.
export function retryDelay(attempt, retryAfter, random = Math.random) {
  const seconds = retryAfter == null || retryAfter === "" ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000 * (1 + random() / 2));
  return Math.round(Math.min(30000, 500 * 2 ** Math.min(attempt, 16)) * (0.5 + random()));
}

// Splits the text of an event stream into its events (`{ name, data }`), returning the events
// and the rest (an event not ended yet). Comments (keep-alives) and unnamed events are skipped.
export function parseEvents(text) {
  const events = [];
  let end;
  while ((end = text.indexOf("\n\n")) >= 0) {
    const block = text.slice(0, end);
    text = text.slice(end + 2);
    let name = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0) events.push({ name, data: data.join("\n") });
  }
  return { events, rest: text };
}

// `view` is what the session tells the page: `state(s)` for every newer state,
// `banner(message, canRestart)`, `hideBanner()`, and `connection(status)`: "live" while the
// page follows its session, "reconnecting" while the server cannot be reached (the page then
// takes no input), "" when there is no session.
const unreachable = "Cannot reach the server. Your last change was not saved; reconnecting…";
export function createSession(view) {
  let hasSession = false;
  let current = { generation: null, revision: 0 };
  // The open event stream's controller (aborting it closes the stream), and the failures in a
  // row since the last event came, which space the tries out.
  let stream = null;
  let failures = 0;
  let retryTimer = null;
  // Whether the server could not be reached: the banner saying so goes when it answers again.
  let lost = false;
  // Whether the server said a change was not saved (its storage refused it): the banner saying
  // so goes when the server reports that everything is saved, or with the next kept change.
  let notSaved = false;
  let resuming = false;
  // Actions are sent one after the other, so the server sees them in the order they happened.
  let queue = Promise.resolve();

  function accept(snapshot) {
    if (!isNewer(current, snapshot)) return;
    current = { generation: snapshot.generation, revision: snapshot.revision };
    view.state(snapshot.state);
  }

  function close() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (stream) { stream.abort(); stream = null; }
  }

  // Resumes the session of this browser (a reload, a second tab) or creates one: one request,
  // which the server answers with the session its cookie names, or a new one.
  async function start() {
    hasSession = false;
    current = { generation: null, revision: 0 };
    close();
    try {
      const response = await fetch(api(""), { method: "POST" });
      const body = await response.json();
      if (!response.ok) { view.banner(body.error || ("HTTP " + response.status), true); return; }
      hasSession = true;
      lost = false;
      view.hideBanner();
      accept(body);
      listen();
    } catch (error) {
      view.banner("Cannot reach the server. Check the connection, then start again.", true);
    }
  }

  // The server did not answer: say so, take no input, and follow the session again as soon as
  // it answers.
  function connectionLost() {
    lost = true;
    view.banner(unreachable, false);
    view.connection("reconnecting");
    if (!resuming && !retryTimer) resume();
  }

  // The server refused or did not answer: try again later (`retryAfter`: its Retry-After).
  function retryLater(retryAfter) {
    view.connection("reconnecting");
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => { retryTimer = null; resume(); }, retryDelay(failures, retryAfter));
    failures += 1;
  }

  function connectionBack() {
    if (lost) { lost = false; view.hideBanner(); }
    view.connection("live");
  }

  async function restart() {
    close();
    await fetch(api(""), { method: "DELETE" }).catch(() => null);
    await start();
  }

  function receive(event) {
    failures = 0;
    if (event.name === "state") accept(JSON.parse(event.data));
    else if (event.name === "saved" && notSaved) { notSaved = false; view.hideBanner(); }
  }

  // Follows the session's events: a streamed response read here rather than an EventSource,
  // which hides the status and the Retry-After of a refused stream (too many streams of this
  // session open, the server busy). A refusal or a lost connection is tried again later, after
  // a wait that grows while it keeps failing; an ended stream (the server restarted, or the
  // balancer moved this browser to another server) resumes the session at once.
  async function listen() {
    close();
    const controller = new AbortController();
    stream = controller;
    let response;
    try {
      response = await fetch(api("/events"), {
        signal: controller.signal, headers: { Accept: "text/event-stream" },
      });
    } catch (error) {
      if (stream === controller) { stream = null; retryLater(null); }
      return;
    }
    if (stream !== controller) return;
    if (response.status === 404) { stream = null; expired(); return; }
    if (!response.ok || !response.body) {
      stream = null;
      retryLater(response.headers ? response.headers.get("Retry-After") : null);
      return;
    }
    connectionBack();
    let text = "";
    let delivered = false;
    try {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || stream !== controller) break;
        const parsed = parseEvents(text + value);
        text = parsed.rest;
        if (parsed.events.length > 0) delivered = true;
        parsed.events.forEach(receive);
      }
    } catch (error) {
      // Aborted by the page, or the connection broke: told apart below.
    }
    if (stream !== controller) return;
    stream = null;
    view.connection("reconnecting");
    // A stream that delivered nothing before it ended counts as a failure, or a server that
    // ends every stream at once would be asked again without pause.
    if (delivered) resume(); else retryLater(null);
  }

  // Reads the state again, then listens again; tries later while no server answers.
  async function resume() {
    if (resuming) return;
    resuming = true;
    close();
    const response = await fetch(api("/state")).catch(() => null);
    resuming = false;
    if (response && response.status === 404) { expired(); return; }
    if (response && response.ok) {
      accept(await response.json());
      lost = false;
      view.hideBanner();
      listen();
      return;
    }
    retryLater(response && response.headers ? response.headers.get("Retry-After") : null);
  }

  function expired() {
    close();
    view.connection("");
    view.banner("This session has expired.", true);
  }

  async function post(action) {
    if (!hasSession) return;
    try {
      const response = await fetch(api("/actions"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(action),
      });
      const body = await response.json();
      if (response.ok) { notSaved = false; view.hideBanner(); accept(body); return; }
      if (response.status === 404) { expired(); return; }
      notSaved = response.status === 503 && (body.error || "").startsWith("not saved");
      view.banner(body.error || ("HTTP " + response.status), false);
    } catch (error) {
      connectionLost();
    }
  }

  function send(action) {
    queue = queue.then(() => post(action));
    return queue;
  }

  // Stops following the session (its stream closed, no try pending); `start` follows it again.
  function stop() {
    hasSession = false;
    close();
  }

  return { start, restart, send, stop };
}
