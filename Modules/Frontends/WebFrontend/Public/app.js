// The page: one module per feature renders its part of the state and sends its actions; this
// one wires them to the session. Adding a feature is one module and one line in `features`.
import * as counters from "./counters.js";
import { $, setText } from "./dom.js";
import * as episodes from "./episodes.js";
import * as search from "./search.js";
import { createSession } from "./session.js";
import * as settings from "./settings.js";

const features = [counters, search, settings, episodes];

function render(state) {
  setText($("header"), state.header);
  document.title = state.header;
  for (const tab of document.querySelectorAll("nav button")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === state.selectedTab));
  }
  for (const section of document.querySelectorAll("section[data-section]")) {
    section.hidden = section.dataset.section !== state.selectedTab;
  }
  for (const feature of features) feature.render(state, session.send);
}

const session = createSession({
  state: render,
  banner(message, canRestart) {
    $("banner-text").textContent = message;
    $("restart").hidden = !canRestart;
    $("banner").classList.add("shown");
  },
  hideBanner() { $("banner").classList.remove("shown"); },
  connection(text) { $("connection").textContent = text; },
});

for (const tab of document.querySelectorAll("nav button")) {
  tab.addEventListener("click", () => session.send({ type: "tab.select", tab: tab.dataset.tab }));
}
for (const feature of features) feature.bind(session.send);
$("restart").addEventListener("click", session.restart);

session.start();
