import { bind, render } from "/settings.js";
import { assert, equal, fixture, test } from "./harness.js";

function settings(overrides) {
  return {
    displayName: "", displayNameError: null, digest: "daily", enableNotifications: false,
    sendEmailNotifications: false, sendMobileNotifications: false, protectMyPosts: false,
    isHapticFeedbackEnabled: true, temperatureUnit: "celsius", canChooseNotificationChannels: false,
    storageError: null, resetConfirmation: null, ...overrides,
  };
}

function form() {
  // The page's own form (read with XMLHttpRequest: another test stands in for fetch).
  const request = new XMLHttpRequest();
  request.open("GET", "/settings.html", false);
  request.send();
  fixture().innerHTML = request.responseText;
  const sent = [];
  bind((message) => sent.push(message));
  return sent;
}

test("a display name longer than kept shows the kept one once the field is left", () => {
  const sent = form();
  const field = document.getElementById("setting-displayName");
  const note = document.getElementById("displayName-error");
  field.focus();
  field.value = "x".repeat(52);
  field.dispatchEvent(new Event("input"));
  equal(sent.at(-1), { type: "settings.set", field: "displayName", value: "x".repeat(52) });
  // The server keeps 32 and says why; while typing, the field is the user's and the note shows.
  render({ settings: settings({ displayName: "x".repeat(32),
                                displayNameError: "Display names are limited to 32 characters." }) });
  equal(field.value.length, 52);
  assert(!note.hidden, "the note is hidden while the name is edited");
  field.blur();
  equal(field.value, "x".repeat(32), "the field shows what is kept");
  assert(note.hidden, "the note stays after leaving the field");
});
