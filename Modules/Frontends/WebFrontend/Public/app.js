// The page's frame: it imports the module of every section the server put on the page, hands
// each the state to render and a way to send actions, wires them to the session, keeps the
// address bar in step with the screen, and makes the tab bar work from the keyboard. It knows no
// feature: a feature's section and module live in its web adapter folder.
import { $, setText } from "./dom.js";
import { addressOf, stepsToward, parseAddress } from "./navigation.js";
import { createSession } from "./session.js";

const sections = Array.from(document.querySelectorAll("main > section[data-section]"));
const features = await Promise.all(sections.map((section) => import(section.dataset.module)));
const tabs = Array.from(document.querySelectorAll("nav [role=tab]"));
// What navigation needs to know of the page: its sections in order, and each one's module.
const page = {
  sections: sections.map((section) => section.dataset.section),
  modules: Object.fromEntries(sections.map((section, index) => [section.dataset.section, features[index]])),
};
const title = document.title;

let shown = null;
// Set while the page sends the actions that bring the screen to the address (Back, Forward, a
// shared link): the states that arrive meanwhile must not add history entries of their own.
let following = false;

function render(state) {
  shown = state;
  // A page of one section (a feature's preview) has no tabs, and its state may have no header.
  const header = state.header ?? title;
  setText($("header"), header);
  document.title = header;
  for (const tab of tabs) {
    const selected = tab.dataset.tab === state.selectedTab;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  if (tabs.length) {
    for (const section of sections) section.hidden = section.dataset.section !== state.selectedTab;
  }
  for (const feature of features) feature.render(state, session.send);
  if (!following) recordAddress(state);
  refreshDevtools?.();
}

// The developer panel (devtools.js), loaded only when asked for: ?devtools in the address, or
// Alt+Shift+D.
let refreshDevtools = null;
async function openDevtools() {
  const module = await import("./devtools.js");
  refreshDevtools = module.open();
  // Before the first state there is no session to ask about: the first state refreshes it.
  if (shown) refreshDevtools();
}
if (new URLSearchParams(location.search).has("devtools")) openDevtools();
document.addEventListener("keydown", (event) => {
  if (event.altKey && event.shiftKey && event.code === "KeyD") {
    event.preventDefault();
    openDevtools();
  }
});

// Each screen the user goes to is an entry of the browser's history, at its own address.
function recordAddress(state) {
  const address = addressOf(state, page);
  if (location.pathname === address) return;
  if (history.state && history.state.app) history.pushState({ app: true }, "", address);
  else history.replaceState({ app: true }, "", address);
}

// Sends the actions that bring the screen to `address`, one after the other. A newer address
// (Back pressed twice) takes over: the older one stops where it is.
let navigation = 0;
async function follow(address) {
  const mine = ++navigation;
  const target = parseAddress(address, page);
  if (!target || !shown) { if (shown) history.replaceState({ app: true }, "", addressOf(shown, page)); return; }
  following = true;
  try {
    for (let step = stepsToward(shown, target, page); step && mine === navigation;) {
      const before = shown;
      await session.send(step);
      if (shown === before) break;  // refused (the server said why in the banner)
      // The same step again from the same screen: the answer came before the action took effect
      // (an effect will bring it); sending it again would act twice.
      const next = stepsToward(shown, target, page);
      const again = next && JSON.stringify(next) === JSON.stringify(step);
      if (again && addressOf(shown, page) === addressOf(before, page)) break;
      step = next;
    }
  } finally {
    if (mine === navigation) following = false;
  }
  if (mine === navigation) history.replaceState({ app: true }, "", addressOf(shown, page));
}

// The address the page was opened at (a reload, a shared link): it wins over the session's
// screen, once, when the first state arrives.
let openedAt = location.pathname;
const session = createSession({
  state(state) {
    if (openedAt === null) { render(state); return; }
    const address = openedAt;
    openedAt = null;
    following = true;
    render(state);
    following = false;
    follow(address);
  },
  banner(message, canRestart) {
    $("banner-text").textContent = message;
    $("restart").hidden = !canRestart;
    $("banner").classList.add("shown");
  },
  hideBanner() { $("banner").classList.remove("shown"); },
  connection(status) {
    $("connection").textContent = { live: "live", reconnecting: "reconnecting…" }[status] || "";
    // Nothing can be changed without the server: the page says so and takes no input meanwhile.
    const main = document.querySelector("main");
    main.inert = status !== "live";
    main.setAttribute("aria-busy", String(status === "reconnecting"));
  },
});

window.addEventListener("popstate", () => follow(location.pathname));

// The tab bar: a click selects; ←/→, Home and End move between tabs and select (the WAI-ARIA
// tabs pattern with automatic activation).
for (const tab of tabs) {
  tab.addEventListener("click", () => session.send({ type: "tab.select", tab: tab.dataset.tab }));
  tab.addEventListener("keydown", (event) => {
    const index = tabs.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    target.focus();
    session.send({ type: "tab.select", tab: target.dataset.tab });
  });
}
for (const feature of features) feature.bind(session.send);
$("restart").addEventListener("click", session.restart);

session.start();
// A page left for another (or put in the back-forward cache) closes its event stream at once,
// so it does not hold one of the session's few stream slots; shown again, it follows anew.
addEventListener("pagehide", () => session.stop());
addEventListener("pageshow", (event) => { if (event.persisted) session.start(); });
