import { renderConfirmation } from "/dom.js";
import { bind as bindEpisodes, render as renderEpisodes } from "/episodes.js";
import { render as renderSearch } from "/search.js";
import { assert, equal, fixture, read, test } from "./harness.js";

function confirmationSection() {
  fixture().innerHTML = '<section id="counters">' + read("/counters.html") + "</section>";
  const opener = document.createElement("button");
  opener.textContent = "Remove";
  document.getElementById("counter-list").append(opener);
  let cancels = 0;
  document.getElementById("removal-cancel").addEventListener("click", () => { cancels += 1; });
  return { opener, cancels: () => cancels };
}

const confirmation = { title: "Remove Counter 1?", message: "Its count goes with it.", confirm: "Remove",
                       isDestructive: true };

test("a confirmation takes focus on Cancel, Esc cancels, and focus goes back to its opener", () => {
  const { opener, cancels } = confirmationSection();
  opener.focus();
  renderConfirmation("removal", confirmation);
  equal(document.activeElement.id, "removal-cancel");
  const dialog = document.getElementById("removal-confirmation");
  equal(dialog.getAttribute("aria-labelledby"), "removal-title");
  document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  equal(cancels(), 1);
  renderConfirmation("removal", null);
  assert(document.activeElement === opener, "focus went to " + document.activeElement.outerHTML);
});

test("when the opener is gone, focus goes to the section's first button, not the body", () => {
  const { opener } = confirmationSection();
  opener.focus();
  renderConfirmation("removal", confirmation);
  document.getElementById("removal-confirm").focus();
  opener.remove();
  renderConfirmation("removal", null);
  equal(document.activeElement.id, "add-counter");
});

test("a search result keeps focus when the list is drawn again", () => {
  fixture().innerHTML = '<section id="search">' + read("/search.html") + "</section>";
  const results = [{ id: 1, name: "Seoul", country: "South Korea", latitude: 0, longitude: 0 },
                   { id: 2, name: "Seongnam", country: "South Korea", latitude: 0, longitude: 0 }];
  const search = { query: "seo", results, isSearchInFlight: false, errorMessage: null, weather: null,
                   forecastRequestInFlightID: null };
  renderSearch({ search }, () => {});
  document.querySelectorAll("#search-results button")[1].focus();
  // Enter chose Seongnam: its forecast loads, then the list marks it chosen.
  renderSearch({ search: { ...search, forecastRequestInFlightID: 2 } }, () => {});
  renderSearch({ search: { ...search, weather: { id: 2, isEstimate: true, days: [] } } }, () => {});
  equal(document.activeElement.dataset.id, "2");
});

test("Esc on an episode screen dismisses its alert, else closes it", () => {
  fixture().innerHTML = '<section id="episodes">' + read("/episodes.html") + "</section>";
  const sent = [];
  bindEpisodes((message) => sent.push(message.type));
  const screen = { id: "00000000-0000-0000-0000-000000000001", title: "Functions", isFavorite: false,
                   isSaving: false, alert: null };
  renderEpisodes({ episodes: [screen], episodeScreens: [screen] }, () => {});
  const escape = () => document.getElementById("screen-heart")
    .dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  escape();
  equal(sent, ["screen.close"]);
  renderEpisodes({ episodes: [screen], episodeScreens: [{ ...screen, alert: { title: "Favoriting failed." } }] },
                 () => {});
  escape();
  equal(sent, ["screen.close", "screen.dismissAlert"]);
});
