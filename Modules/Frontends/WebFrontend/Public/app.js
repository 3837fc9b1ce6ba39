let hasSession = false;
let revision = 0;
// A session resumed elsewhere (a restarted or another server) starts a new generation, whose
// revisions are compared among themselves only.
let generation = null;
let state = null;
let events = null;

const $ = (id) => document.getElementById(id);
// The session id lives in an HttpOnly cookie the browser sends with every API request.
const api = (path) => "/api/session" + path;

function showBanner(message, canRestart) {
  $("banner-text").textContent = message;
  $("restart").hidden = !canRestart;
  $("banner").classList.add("shown");
}
function hideBanner() { $("banner").classList.remove("shown"); }

function accept(snapshot) {
  if (!snapshot) return;
  if (snapshot.generation === generation && snapshot.revision < revision) return;
  generation = snapshot.generation;
  revision = snapshot.revision;
  state = snapshot.state;
  render(state);
}

// Resumes the session of this browser (a reload, a second tab) or creates one.
async function start() {
  hasSession = false;
  revision = 0;
  generation = null;
  if (events) { events.close(); events = null; }
  try {
    let response = await fetch(api("/state"));
    if (response.status === 404) response = await fetch(api(""), { method: "POST" });
    const body = await response.json();
    if (!response.ok) { showBanner(body.error || ("HTTP " + response.status), true); return; }
    hasSession = true;
    hideBanner();
    accept(body);
    listen();
  } catch (error) {
    showBanner("Cannot reach the server: " + error.message, true);
  }
}

async function restart() {
  if (events) { events.close(); events = null; }
  await fetch(api(""), { method: "DELETE" }).catch(() => null);
  await start();
}

function listen() {
  events = new EventSource(api("/events"));
  events.addEventListener("state", (event) => accept(JSON.parse(event.data)));
  events.onopen = () => { $("connection").textContent = "live"; };
  events.onerror = () => {
    $("connection").textContent = "reconnecting…";
    if (events && events.readyState === EventSource.CLOSED) resume();
  };
}

// The stream was refused (the server restarted, or the balancer moved this browser to another
// server, which resumes the saved session): read the state again, then listen again; retry while
// no server answers.
async function resume() {
  if (events) { events.close(); events = null; }
  const response = await fetch(api("/state")).catch(() => null);
  if (response && response.status === 404) { expired(); return; }
  if (response && response.ok) {
    accept(await response.json());
    hideBanner();
    listen();
    return;
  }
  setTimeout(resume, 1000);
}

function expired() {
  if (events) { events.close(); events = null; }
  $("connection").textContent = "";
  showBanner("This session has expired.", true);
}

// Actions are sent one after the other, so the server sees them in the order they happened.
let queue = Promise.resolve();
function send(action) {
  queue = queue.then(() => post(action));
  return queue;
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
    if (response.ok) { hideBanner(); accept(body); return; }
    if (response.status === 404) { expired(); return; }
    showBanner(body.error || ("HTTP " + response.status), false);
  } catch (error) {
    showBanner("Cannot reach the server: " + error.message, false);
  }
}

// ---------- rendering ----------

function setText(element, text) {
  const value = text == null ? "" : String(text);
  if (element.textContent !== value) element.textContent = value;
}
function setShown(element, shown) { element.hidden = !shown; }

function render(s) {
  setText($("header"), s.header);
  document.title = s.header;
  for (const tab of document.querySelectorAll("nav button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === s.selectedTab));
  }
  for (const section of document.querySelectorAll("section[data-section]")) {
    section.hidden = section.dataset.section !== s.selectedTab;
  }
  renderCounters(s.counters);
  renderConfirmation("removal", s.removalConfirmation);
  renderSearch(s.search);
  renderSettings(s.settings);
  renderEpisodes(s.episodes, s.episodeScreens || []);
  setText($("episodes-error"), s.episodesError);
  setShown($("episodes-error"), !!s.episodesError);
}

function keyed(container, items, create, update) {
  const existing = new Map();
  for (const child of Array.from(container.children)) existing.set(child.dataset.id, child);
  let previous = null;
  for (const item of items) {
    let element = existing.get(String(item.id));
    if (!element) { element = create(item); element.dataset.id = String(item.id); }
    existing.delete(String(item.id));
    update(element, item);
    const next = previous ? previous.nextSibling : container.firstChild;
    if (next !== element) container.insertBefore(element, next);
    previous = element;
  }
  for (const element of existing.values()) element.remove();
}

function renderCounters(counters) {
  keyed($("counter-list"), counters, (counter) => {
    const card = document.createElement("div");
    card.className = "card counter";
    card.innerHTML =
      '<div class="row">' +
      '<button class="act" data-do="counter.decrement" aria-label="Decrement">−</button>' +
      '<span class="count"></span>' +
      '<button class="act" data-do="counter.increment" aria-label="Increment">+</button>' +
      '<button class="act" data-do="counter.fact">Fact</button>' +
      '<button class="act" data-do="counter.random">Random</button>' +
      '<button class="act" data-do="counter.timer"></button>' +
      '<span class="spinner" hidden></span>' +
      '<button class="act push-right" data-do="counter.remove">Remove</button>' +
      '</div><p class="fact"></p><p class="error fact-error"></p><p class="error random-error"></p>';
    for (const button of card.querySelectorAll("button[data-do]")) {
      button.addEventListener("click", () => send({ type: button.dataset.do, id: counter.id }));
    }
    return card;
  }, (card, counter) => {
    setText(card.querySelector(".count"), counter.count);
    setText(card.querySelector('[data-do="counter.timer"]'), counter.isTimerOn ? "Stop timer" : "Start timer");
    setShown(card.querySelector(".spinner"), counter.isFactRequestInFlight || counter.isRandomNumberRequestInFlight);
    const fact = card.querySelector(".fact");
    setText(fact, counter.fact); setShown(fact, !!counter.fact);
    const factError = card.querySelector(".fact-error");
    setText(factError, counter.factError); setShown(factError, !!counter.factError);
    const randomError = card.querySelector(".random-error");
    setText(randomError, counter.randomNumberError); setShown(randomError, !!counter.randomNumberError);
  });
}

let renderedResults = "";
function renderSearch(search) {
  const input = $("search-query");
  if (document.activeElement !== input && input.value !== search.query) input.value = search.query;
  setShown($("search-spinner"), search.isSearchInFlight);
  setText($("search-error"), search.errorMessage);
  setShown($("search-error"), !!search.errorMessage);
  const key = JSON.stringify([search.results, search.weather && search.weather.id]);
  if (key !== renderedResults) {
    renderedResults = key;
    const list = $("search-results");
    list.replaceChildren(...search.results.map((place) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = String(place.id);
      button.textContent = place.name + (place.admin1 ? ", " + place.admin1 : "") + " — " + place.country;
      if (search.weather && search.weather.id === place.id) button.classList.add("selected");
      button.addEventListener("click", () => send({ type: "search.select", id: place.id }));
      item.appendChild(button);
      return item;
    }));
  }
  const forecast = $("forecast");
  const loadingID = search.forecastRequestInFlightID;
  setShown(forecast, !!search.weather || loadingID != null);
  setShown($("forecast-spinner"), loadingID != null);
  const shownID = search.weather ? search.weather.id : loadingID;
  const place = search.results.find((p) => p.id === shownID);
  setText($("forecast-title"), place ? "Forecast for " + place.name : "Forecast");
  setShown($("forecast-estimate"), !!(search.weather && search.weather.isEstimate));
  drawForecast(search.weather);
}

let renderedForecast = "";
function drawForecast(weather) {
  const key = JSON.stringify(weather);
  if (key === renderedForecast) return;
  renderedForecast = key;
  const chart = $("forecast-chart");
  const table = $("forecast-table");
  if (!weather || weather.days.length === 0) { chart.replaceChildren(); table.replaceChildren(); return; }
  const days = weather.days;
  // The right margin leaves room for half of the last date label, which is centred on its point.
  const width = 520, height = 200, left = 40, right = 28, top = 14, bottom = 28;
  const low = Math.min(...days.map((d) => d.min)), high = Math.max(...days.map((d) => d.max));
  const span = Math.max(high - low, 1);
  const x = (i) => left + (days.length === 1 ? 0 : i * (width - left - right) / (days.length - 1));
  const y = (t) => top + (high - t) * (height - top - bottom) / span;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Daily minimum and maximum temperatures");
  svg.id = "forecast-svg";
  const add = (name, attributes, text) => {
    const element = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text != null) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  for (const t of [low, (low + high) / 2, high]) {
    add("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), stroke: "#e3e3e3" });
    add("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", "font-size": 11, fill: "#6e6e73" }, t.toFixed(0));
  }
  const line = (key, color, cls) => {
    add("polyline", { points: days.map((d, i) => x(i) + "," + y(d[key])).join(" "), fill: "none", stroke: color, "stroke-width": 2, class: cls });
    days.forEach((d, i) => add("circle", { cx: x(i), cy: y(d[key]), r: 3, fill: color }));
  };
  line("max", "#d9480f", "series-max");
  line("min", "#1c7ed6", "series-min");
  days.forEach((d, i) => add("text", { x: x(i), y: height - 8, "text-anchor": "middle", "font-size": 11, fill: "#6e6e73" }, d.date.slice(5)));
  chart.replaceChildren(svg);
  const rows = ["<tr><th>Day</th><th>Min</th><th>Max</th></tr>"].concat(days.map((d) =>
    "<tr><td>" + d.date + "</td><td>" + d.min.toFixed(1) + " " + escapeHTML(d.unit) + "</td><td>" + d.max.toFixed(1) + " " + escapeHTML(d.unit) + "</td></tr>"));
  table.innerHTML = rows.join("");
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function renderSettings(settings) {
  for (const control of document.querySelectorAll("#settings-form [data-field]")) {
    const value = settings[control.dataset.field];
    if (control.type === "checkbox") {
      if (control.checked !== value) control.checked = value;
    } else if (document.activeElement !== control && control.value !== value) {
      control.value = value;
    }
  }
  setText($("displayName-error"), settings.displayNameError);
  setShown($("displayName-error"), !!settings.displayNameError);
  setText($("settings-storage-error"), settings.storageError);
  setShown($("settings-storage-error"), !!settings.storageError);
  renderConfirmation("reset", settings.resetConfirmation);
}

// A confirmation dialog (#<name>-confirmation), shown while the state has one.
function renderConfirmation(name, confirmation) {
  setShown($(name + "-confirmation"), !!confirmation);
  setText($(name + "-title"), confirmation ? confirmation.title : "");
  setText($(name + "-message"), confirmation && confirmation.message ? confirmation.message : "");
  setText($(name + "-confirm"), confirmation ? confirmation.confirm : "");
}

function renderEpisodes(episodes, screens) {
  // The navigation stack: its top screen covers the list.
  const screen = screens.length ? screens[screens.length - 1] : null;
  setShown($("episode-screen"), !!screen);
  setShown($("episode-list"), !screen);
  if (screen) {
    setText($("screen-title"), screen.title);
    setText($("screen-heart"), screen.isFavorite ? "♥" : "♡");
    $("screen-heart").setAttribute("aria-pressed", String(screen.isFavorite));
    $("screen-heart").setAttribute("aria-label", (screen.isFavorite ? "Unfavorite " : "Favorite ") + screen.title);
    setShown($("screen-alert"), !!screen.alert);
    setText($("screen-alert-text"),
      screen.alert ? [screen.alert.title, screen.alert.message].filter(Boolean).join(" ") : "");
  }
  keyed($("episode-list"), episodes, (episode) => {
    const card = document.createElement("div");
    card.className = "card episode";
    card.innerHTML =
      '<div class="row"><span class="title grow"></span>' +
      '<button class="act" data-do="episode.open">Open</button>' +
      '<button class="heart" data-do="episode.favorite"></button></div>' +
      '<div class="alert" role="alertdialog" hidden><span class="alert-text"></span>' +
      '<button class="act" data-do="episode.dismissAlert">OK</button></div>';
    for (const button of card.querySelectorAll("button[data-do]")) {
      button.addEventListener("click", () => send({ type: button.dataset.do, id: episode.id }));
    }
    return card;
  }, (card, episode) => {
    setText(card.querySelector(".title"), episode.title);
    const heart = card.querySelector(".heart");
    setText(heart, episode.isFavorite ? "♥" : "♡");
    heart.setAttribute("aria-pressed", String(episode.isFavorite));
    heart.setAttribute("aria-label", (episode.isFavorite ? "Unfavorite " : "Favorite ") + episode.title);
    const alert = card.querySelector(".alert");
    setShown(alert, !!episode.alert);
    setText(card.querySelector(".alert-text"),
      episode.alert ? [episode.alert.title, episode.alert.message].filter(Boolean).join(" ") : "");
  });
}

// ---------- controls ----------

for (const tab of document.querySelectorAll("nav button")) {
  tab.addEventListener("click", () => send({ type: "tab.select", tab: tab.dataset.tab }));
}
$("add-counter").addEventListener("click", () => send({ type: "counter.add" }));
$("screen-close").addEventListener("click", () => send({ type: "screen.close" }));
$("screen-heart").addEventListener("click", () => send({ type: "screen.favorite" }));
$("screen-alert-ok").addEventListener("click", () => send({ type: "screen.dismissAlert" }));
// Every keystroke is sent; the server debounces the search by 300 ms.
$("search-query").addEventListener("input", (event) => send({ type: "search.query", query: event.target.value }));
$("search-query").addEventListener("keydown", (event) => {
  if (event.key === "Enter") { event.preventDefault(); send({ type: "search.submit" }); }
});
for (const control of document.querySelectorAll("#settings-form [data-field]")) {
  const field = control.dataset.field;
  if (control.type === "checkbox") {
    control.addEventListener("change", () => send({ type: "settings.set", field, value: control.checked }));
  } else if (control.tagName === "SELECT") {
    control.addEventListener("change", () => send({ type: "settings.set", field, value: control.value }));
  } else {
    control.addEventListener("input", () => send({ type: "settings.set", field, value: control.value }));
  }
}
$("reset-settings").addEventListener("click", () => send({ type: "settings.reset" }));
$("removal-confirm").addEventListener("click", () => send({ type: "counter.confirmRemove" }));
$("removal-cancel").addEventListener("click", () => send({ type: "counter.cancelRemove" }));
$("reset-confirm").addEventListener("click", () => send({ type: "settings.confirmReset" }));
$("reset-cancel").addEventListener("click", () => send({ type: "settings.cancelReset" }));
$("restart").addEventListener("click", restart);

start();
