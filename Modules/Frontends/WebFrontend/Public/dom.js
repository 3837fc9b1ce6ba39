// Small DOM helpers shared by the feature modules: they touch an element only when its content
// changes, so a redraw after every state is cheap and keeps focus and selection.

export const $ = (id) => document.getElementById(id);

export function setText(element, text) {
  const value = text == null ? "" : String(text);
  if (element.textContent !== value) element.textContent = value;
}

export function setShown(element, shown) { element.hidden = !shown; }

// Makes the children of `container` the elements of `items`, in order, by `item.id`: an element
// is created once per id (`create`), updated on every call (`update`), moved only when out of
// place, and removed when its id is gone.
export function keyed(container, items, create, update) {
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

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// The text of an alert in the state: its title, then its message if it has one.
export function alertText(alert) {
  return alert ? [alert.title, alert.message].filter(Boolean).join(" ") : "";
}

// What had focus when each confirmation opened, to give it back when it closes.
const openers = new Map();

// A confirmation dialog (#<name>-confirmation), shown while the state has one. It follows the
// WAI-ARIA alert dialog pattern: named by its title and described by its message; opening moves
// focus to Cancel (the least destructive answer); Esc cancels; closing gives focus back to what
// had it — or, when that is gone (the removed counter's button), to the first button of the
// dialog's section — never to the page's body.
export function renderConfirmation(name, confirmation) {
  const dialog = $(name + "-confirmation");
  const wasShown = !dialog.hidden;
  if (!dialog.dataset.bound) {
    dialog.dataset.bound = "true";
    dialog.setAttribute("aria-labelledby", name + "-title");
    dialog.setAttribute("aria-describedby", name + "-message");
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") { event.preventDefault(); $(name + "-cancel").click(); }
    });
  }
  setShown(dialog, !!confirmation);
  setText($(name + "-title"), confirmation ? confirmation.title : "");
  setText($(name + "-message"), confirmation && confirmation.message ? confirmation.message : "");
  setText($(name + "-confirm"), confirmation ? confirmation.confirm : "");
  $(name + "-confirm").classList.toggle("destructive", !!(confirmation && confirmation.isDestructive));
  if (confirmation && !wasShown) {
    openers.set(name, document.activeElement);
    $(name + "-cancel").focus();
  } else if (!confirmation && wasShown) {
    const opener = openers.get(name);
    openers.delete(name);
    const focusWasInside = document.activeElement === document.body || dialog.contains(document.activeElement);
    if (!focusWasInside) return;
    if (opener && opener.isConnected && opener.offsetParent !== null) opener.focus();
    else {
      const section = dialog.closest("section") || document.body;
      const first = Array.from(section.querySelectorAll("button")).find((b) => b.offsetParent !== null);
      if (first) first.focus();
    }
  }
}
