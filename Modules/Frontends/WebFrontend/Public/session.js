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

// `view` is what the session tells the page: `state(s)` for every newer state,
// `banner(message, canRestart)`, `hideBanner()`, and `connection(status)`: "live" while the
// page follows its session, "reconnecting" while the server cannot be reached (the page then
// takes no input), "" when there is no session.
const unreachable = "Cannot reach the server. Your last change was not saved; reconnecting…";
export function createSession(view) {
  let hasSession = false;
  let current = { generation: null, revision: 0 };
  let events = null;
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
    if (events) { events.close(); events = null; }
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
    resume();
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

  function listen() {
    events = new EventSource(api("/events"));
    events.addEventListener("state", (event) => accept(JSON.parse(event.data)));
    events.addEventListener("saved", () => {
      if (notSaved) { notSaved = false; view.hideBanner(); }
    });
    events.onopen = connectionBack;
    events.onerror = () => {
      view.connection("reconnecting");
      if (events && events.readyState === EventSource.CLOSED) resume();
    };
  }

  // The stream was refused (the server restarted, or the balancer moved this browser to another
  // server, which resumes the saved session): read the state again, then listen again; retry
  // while no server answers.
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
    setTimeout(resume, 1000);
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

  return { start, restart, send };
}
