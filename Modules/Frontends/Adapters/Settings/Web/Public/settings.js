// The Settings screen: a form whose every control writes one field through a binding action.
import { $, renderConfirmation, setShown, setText } from "./dom.js";

// The two channels can be chosen only while notifications are on (`canChooseNotificationChannels`).
const channels = ["setting-sendEmailNotifications", "setting-sendMobileNotifications"];

// The settings last rendered: a text field the user leaves shows what is kept (the feature trims
// a display name and keeps at most 32 characters), and its note goes with the editing.
let shown = null;

export function bind(send) {
  // Every control saves as it changes: Enter in the name field has nothing to submit (and the
  // page's policy forbids form submissions).
  $("settings-form").addEventListener("submit", (event) => event.preventDefault());
  for (const control of document.querySelectorAll("#settings-form [data-field]")) {
    const field = control.dataset.field;
    if (control.type === "checkbox") {
      control.addEventListener("change", () => send({ type: "settings.set", field, value: control.checked }));
    } else if (control.tagName === "SELECT") {
      control.addEventListener("change", () => send({ type: "settings.set", field, value: control.value }));
    } else {
      control.addEventListener("input", () => send({ type: "settings.set", field, value: control.value }));
      control.addEventListener("blur", () => { if (shown) render({ settings: shown }); });
      control.addEventListener("focus", () => { if (shown) render({ settings: shown }); });
    }
  }
  $("reset-settings").addEventListener("click", () => send({ type: "settings.reset" }));
  $("reset-confirm").addEventListener("click", () => send({ type: "settings.confirmReset" }));
  $("reset-cancel").addEventListener("click", () => send({ type: "settings.cancelReset" }));
}

export function render(state) {
  const settings = state.settings;
  shown = settings;
  for (const control of document.querySelectorAll("#settings-form [data-field]")) {
    const value = settings[control.dataset.field];
    if (control.type === "checkbox") {
      if (control.checked !== value) control.checked = value;
    } else if (document.activeElement !== control && control.value !== value) {
      control.value = value;
    }
  }
  for (const id of channels) $(id).disabled = !settings.canChooseNotificationChannels;
  setShown($("channels-hint"), !settings.canChooseNotificationChannels);
  // The note says why what is typed is not all kept: it is shown while the field is edited.
  const editingName = document.activeElement === $("setting-displayName");
  setText($("displayName-error"), settings.displayNameError);
  setShown($("displayName-error"), !!settings.displayNameError && editingName);
  setText($("settings-storage-error"), settings.storageError);
  setShown($("settings-storage-error"), !!settings.storageError);
  renderConfirmation("reset", settings.resetConfirmation);
}
