// The page's address: `/<tab>` for each tab, `/episodes/<id>/<id>…` while episode screens are
// pushed. The session's state decides what is on screen; the address follows it, and an address
// typed, shared or reached with Back/Forward is turned into the actions that lead there. No
// session id is ever part of an address.

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The address of what `state` shows.
export function addressOf(state) {
  const screens = state.episodeScreens || [];
  if (state.selectedTab === "episodes" && screens.length) {
    return "/episodes/" + screens.map((screen) => String(screen.id).toLowerCase()).join("/");
  }
  return "/" + state.selectedTab;
}

// What `path` asks to show — `{ tab, screens }` — or null for an address that is not the page's.
export function parseAddress(path, tabs = ["counters", "search", "settings", "episodes"]) {
  const parts = path.split("/").filter(Boolean);
  if (parts.length === 0) return null;
  const [tab, ...screens] = parts;
  if (!tabs.includes(tab)) return null;
  if (screens.length && (tab !== "episodes" || !screens.every((id) => uuid.test(id)))) return null;
  return { tab, screens: screens.map((id) => id.toUpperCase()) };
}

// The next action that brings `state` closer to `target`, or null once it shows it: the tab
// first, then screens closed down to what both stacks share, then the missing ones opened.
export function stepsToward(state, target) {
  if (state.selectedTab !== target.tab) return { type: "tab.select", tab: target.tab };
  const current = (state.episodeScreens || []).map((screen) => String(screen.id).toUpperCase());
  let shared = 0;
  while (shared < current.length && current[shared] === target.screens[shared]) shared += 1;
  if (current.length > shared) return { type: "screen.close" };
  if (target.screens.length > shared) return { type: "episode.open", id: target.screens[shared] };
  return null;
}
