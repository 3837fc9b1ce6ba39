import * as episodes from "/episodes.js";
import { addressOf, parseAddress, stepsToward } from "/navigation.js";
import { equal, test } from "./harness.js";

const a = "0000000A-0000-0000-0000-000000000000";
const b = "0000000B-0000-0000-0000-000000000000";
const state = (selectedTab, ...screens) => ({ selectedTab, episodeScreens: screens.map((id) => ({ id })) });
// The app's page: four sections, of which only Episodes has inner screens.
const app = {
  sections: ["counters", "search", "settings", "episodes"],
  modules: { counters: {}, search: {}, settings: {}, episodes },
};
// A preview's page: Episodes alone, without tabs.
const preview = { sections: ["episodes"], modules: { episodes } };

test("each tab and each stack of episode screens has its own address", () => {
  equal(addressOf(state("counters"), app), "/counters");
  equal(addressOf(state("settings", a), app), "/settings", "screens under another tab are not on screen");
  equal(addressOf(state("episodes"), app), "/episodes");
  equal(addressOf(state("episodes", a, b), app), "/episodes/" + a.toLowerCase() + "/" + b.toLowerCase());
});

test("an address that is not the page's is not followed", () => {
  equal(parseAddress("/", app), null);
  equal(parseAddress("/admin", app), null);
  equal(parseAddress("/search/x", app), null, "a section without inner screens has no address below it");
  equal(parseAddress("/episodes/not-an-id", app), null);
  equal(parseAddress("/episodes/" + a.toLowerCase() + "/", app), { section: "episodes", inner: [a] });
  equal(parseAddress("/counters", preview), null, "a preview has only its own section");
});

test("the steps toward an address: the tab, then screens closed to the shared part, then opened", () => {
  const target = parseAddress("/episodes/" + a + "/" + b, app);
  equal(stepsToward(state("search"), target, app), { type: "tab.select", tab: "episodes" });
  equal(stepsToward(state("episodes"), target, app), { type: "episode.open", id: a });
  equal(stepsToward(state("episodes", a), target, app), { type: "episode.open", id: b });
  equal(stepsToward(state("episodes", a, b), target, app), null);
  equal(stepsToward(state("episodes", b), target, app), { type: "screen.pop" });
  // Back from a pushed screen: the address has one screen less.
  equal(stepsToward(state("episodes", a, b), parseAddress("/episodes/" + a, app), app), { type: "screen.pop" });
  equal(stepsToward(state("episodes", a), parseAddress("/episodes", app), app), { type: "screen.pop" });
  equal(stepsToward(state("counters"), parseAddress("/counters", app), app), null);
});

test("a page of one section has no tabs: its address and steps come from its module alone", () => {
  const alone = (...screens) => ({ episodeScreens: screens.map((id) => ({ id })) });
  equal(addressOf(alone(), preview), "/episodes");
  equal(addressOf(alone(a), preview), "/episodes/" + a.toLowerCase());
  equal(stepsToward(alone(), parseAddress("/episodes/" + a, preview), preview), { type: "episode.open", id: a });
  equal(stepsToward(alone(a), parseAddress("/episodes", preview), preview), { type: "screen.pop" });
});
