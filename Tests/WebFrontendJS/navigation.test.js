import { addressOf, parseAddress, stepsToward } from "/navigation.js";
import { equal, test } from "./harness.js";

const a = "0000000A-0000-0000-0000-000000000000";
const b = "0000000B-0000-0000-0000-000000000000";
const state = (selectedTab, ...screens) => ({ selectedTab, episodeScreens: screens.map((id) => ({ id })) });

test("each tab and each stack of episode screens has its own address", () => {
  equal(addressOf(state("counters")), "/counters");
  equal(addressOf(state("settings", a)), "/settings", "screens under another tab are not on screen");
  equal(addressOf(state("episodes")), "/episodes");
  equal(addressOf(state("episodes", a, b)), "/episodes/" + a.toLowerCase() + "/" + b.toLowerCase());
});

test("an address that is not the page's is not followed", () => {
  equal(parseAddress("/"), null);
  equal(parseAddress("/admin"), null);
  equal(parseAddress("/search/x"), null);
  equal(parseAddress("/episodes/not-an-id"), null);
  equal(parseAddress("/episodes/" + a.toLowerCase() + "/"), { tab: "episodes", screens: [a] });
});

test("the steps toward an address: the tab, then screens closed to the shared part, then opened", () => {
  const target = parseAddress("/episodes/" + a + "/" + b);
  equal(stepsToward(state("search"), target), { type: "tab.select", tab: "episodes" });
  equal(stepsToward(state("episodes"), target), { type: "episode.open", id: a });
  equal(stepsToward(state("episodes", a), target), { type: "episode.open", id: b });
  equal(stepsToward(state("episodes", a, b), target), null);
  equal(stepsToward(state("episodes", b), target), { type: "screen.close" });
  // Back from a pushed screen: the address has one screen less.
  equal(stepsToward(state("episodes", a, b), parseAddress("/episodes/" + a)), { type: "screen.close" });
  equal(stepsToward(state("episodes", a), parseAddress("/episodes")), { type: "screen.close" });
});
