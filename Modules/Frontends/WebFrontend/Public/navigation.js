// The page's address: `/<section>` for each section (a tab), and below it what the section's
// module says its inner screens are (`/episodes/<id>/<id>…` while episode screens are pushed).
// The session's state decides what is on screen; the address follows it, and an address typed,
// shared or reached with Back/Forward is turned into the actions that lead there. No session id
// is ever part of an address.
//
// `page` is `{ sections, modules }`: the section ids in tab order and each one's module. With
// several sections the state's `selectedTab` says which is shown and `tab.select` changes it; a
// page of one section always shows it. A module with inner screens exports `address(state)`
// (the segments below its address), `parseAddress(segments)` (what they ask for, or null) and
// `stepToward(state, target)` (the next action toward it, or null once it is shown).

// The section `state` shows.
function shownSection(state, page) {
  return page.sections.length > 1 ? state.selectedTab : page.sections[0];
}

// The address of what `state` shows.
export function addressOf(state, page) {
  const section = shownSection(state, page);
  const module = page.modules[section];
  const inner = module && module.address ? module.address(state) : [];
  return "/" + [section, ...inner].join("/");
}

// What `path` asks to show — `{ section, inner }` — or null for an address that is not the page's.
export function parseAddress(path, page) {
  const [section, ...segments] = path.split("/").filter(Boolean);
  if (!page.sections.includes(section)) return null;
  if (!segments.length) return { section, inner: null };
  const module = page.modules[section];
  const inner = module && module.parseAddress ? module.parseAddress(segments) : null;
  return inner === null ? null : { section, inner };
}

// The next action that brings `state` closer to `target`, or null once it shows it: the tab
// first, then whatever the section's module says.
export function stepsToward(state, target, page) {
  if (shownSection(state, page) !== target.section) return { type: "tab.select", tab: target.section };
  const module = page.modules[target.section];
  return module && module.stepToward ? module.stepToward(state, target.inner) : null;
}
