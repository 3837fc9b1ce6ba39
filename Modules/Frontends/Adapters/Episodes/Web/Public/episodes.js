// The Episodes screen: the list with a favorite button per row, and the navigation stack of
// episode screens, whose top one covers the list.
import { $, alertText, keyed, setShown, setText } from "./dom.js";

export function bind(send) {
  $("screen-close").addEventListener("click", () => send({ type: "screen.close" }));
  $("screen-heart").addEventListener("click", () => send({ type: "screen.favorite" }));
  $("screen-alert-ok").addEventListener("click", () => send({ type: "screen.dismissAlert" }));
  $("episodes-favorites-only").addEventListener("change", () => send({ type: "episodes.favoritesOnly" }));
  // Esc on the episode screen dismisses its alert if one is up, else closes the screen, as the
  // screen's ‹ button does (and as Esc does in the terminal).
  $("episode-screen").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    if (!$("screen-alert").hidden) $("screen-alert-ok").click();
    else $("screen-close").click();
  });
  // Esc on a row's alert dismisses it.
  $("episode-list").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const card = event.target.closest(".episode");
    const ok = card && card.querySelector('[data-do="episode.dismissAlert"]');
    if (ok && !card.querySelector(".alert").hidden) { event.preventDefault(); ok.click(); }
  });
}

function showHeart(heart, item) {
  setText(heart, item.isFavorite ? "♥" : "♡");
  heart.setAttribute("aria-pressed", String(item.isFavorite));
  heart.setAttribute("aria-label", (item.isFavorite ? "Unfavorite " : "Favorite ") + item.title);
  // A save in flight shows beside the heart ("saving…") and to assistive technology.
  heart.classList.toggle("saving", !!item.isSaving);
  heart.setAttribute("aria-busy", String(!!item.isSaving));
}

// The screen on top, by id: focus follows it when it changes (into a pushed screen, back to the
// row's Open button when it closes), so a keyboard user is never left on a hidden control.
let topScreenID;

export function render(state, send) {
  const screens = state.episodeScreens || [];
  const screen = screens.length ? screens[screens.length - 1] : null;
  setShown($("episode-screen"), !!screen);
  setShown($("episode-list"), !screen);
  setShown($("episodes-filter"), !screen);
  const favoritesOnly = !!state.favoritesOnly;
  $("episodes-favorites-only").checked = favoritesOnly;
  const shownCount = (state.episodes || []).length;
  setText($("episodes-filter-count"), favoritesOnly ? `${shownCount} of ${state.episodeCount}` : "");
  setShown($("episodes-no-favorites"), !screen && favoritesOnly && shownCount === 0);
  if (screen) {
    setText($("screen-title"), screen.title);
    showHeart($("screen-heart"), screen);
    setShown($("screen-alert"), !!screen.alert);
    setText($("screen-alert-text"), alertText(screen.alert));
  }
  keyed($("episode-list"), state.episodes, (episode) => {
    const card = document.createElement("div");
    card.className = "card episode";
    card.innerHTML =
      '<div class="row"><span class="title grow"></span>' +
      '<button class="act" data-do="episode.open">Open</button>' +
      '<button class="heart" data-do="episode.favorite"></button></div>' +
      '<div class="alert" role="alertdialog" hidden><span class="alert-text"></span>' +
      '<button class="act" data-do="episode.dismissAlert">OK, put the ♥ back</button></div>';
    for (const button of card.querySelectorAll("button[data-do]")) {
      button.addEventListener("click", () => send({ type: button.dataset.do, id: episode.id }));
    }
    return card;
  }, (card, episode) => {
    setText(card.querySelector(".title"), episode.title);
    card.querySelector('[data-do="episode.open"]').setAttribute("aria-label", "Open " + episode.title);
    showHeart(card.querySelector(".heart"), episode);
    setShown(card.querySelector(".alert"), !!episode.alert);
    setText(card.querySelector(".alert-text"), alertText(episode.alert));
  });
  const id = screen ? String(screen.id) : null;
  if (topScreenID !== undefined && id !== topScreenID && !$("episodes").hidden) {
    if (screen) $("screen-close").focus();
    else {
      const row = Array.from($("episode-list").children).find((card) => card.dataset.id === topScreenID);
      if (row) row.querySelector('[data-do="episode.open"]').focus();
    }
  }
  topScreenID = id;
  setText($("episodes-error"), state.episodesError);
  setShown($("episodes-error"), !!state.episodesError);
}

// The screens' addresses: `/episodes/<id>/<id>…`, an id per pushed screen, bottom first.
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function address(state) {
  return (state.episodeScreens || []).map((screen) => String(screen.id).toLowerCase());
}

// The stack of screens the segments name, or null when one is not an episode id.
export function parseAddress(segments) {
  return segments.every((id) => uuid.test(id)) ? segments.map((id) => id.toUpperCase()) : null;
}

// Screens are popped down to what both stacks share, then the missing ones opened. Popping is the
// stack's own back (`screen.pop`), whose answer already shows the screen below; the screen's ‹
// button (`screen.close`) dismisses it in an effect, after the answer, and a step would be sent
// again before the state that shows it arrives.
export function stepToward(state, target) {
  const wanted = target || [];
  const current = (state.episodeScreens || []).map((screen) => String(screen.id).toUpperCase());
  let shared = 0;
  while (shared < current.length && current[shared] === wanted[shared]) shared += 1;
  if (current.length > shared) return { type: "screen.pop" };
  if (wanted.length > shared) return { type: "episode.open", id: wanted[shared] };
  return null;
}
