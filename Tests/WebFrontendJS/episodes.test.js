import { render } from "/episodes.js";
import { assert, equal, fixture, test } from "./harness.js";

function section() {
  // The page's own section (read with XMLHttpRequest: another test stands in for fetch).
  const request = new XMLHttpRequest();
  request.open("GET", "/episodes.html", false);
  request.send();
  fixture().innerHTML = '<section id="episodes">' + request.responseText + "</section>";
}

function episode(overrides) {
  return { id: "00000000-0000-0000-0000-000000000001", title: "Side Effects", isFavorite: true,
           isSaving: false, alert: null, ...overrides };
}

test("a save in flight shows beside its heart, and OK says what it undoes", () => {
  section();
  render({ episodes: [episode({ isSaving: true })], episodeScreens: [] }, () => {});
  const heart = document.querySelector("#episode-list .heart");
  assert(heart.classList.contains("saving"), heart.outerHTML);
  equal(heart.getAttribute("aria-busy"), "true");
  const ok = document.querySelector('#episode-list [data-do="episode.dismissAlert"]');
  equal(ok.textContent, "OK, put the ♥ back");
  render({ episodes: [episode({ isSaving: false })], episodeScreens: [] }, () => {});
  assert(!heart.classList.contains("saving"), "still saving after the answer");
  equal(heart.getAttribute("aria-busy"), "false");
  equal(document.getElementById("screen-alert-ok").textContent, "OK, put the ♥ back");
});
