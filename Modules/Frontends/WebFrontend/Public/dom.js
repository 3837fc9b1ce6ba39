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

// A confirmation dialog (#<name>-confirmation), shown while the state has one.
export function renderConfirmation(name, confirmation) {
  setShown($(name + "-confirmation"), !!confirmation);
  setText($(name + "-title"), confirmation ? confirmation.title : "");
  setText($(name + "-message"), confirmation && confirmation.message ? confirmation.message : "");
  setText($(name + "-confirm"), confirmation ? confirmation.confirm : "");
  $(name + "-confirm").classList.toggle("destructive", !!(confirmation && confirmation.isDestructive));
}
