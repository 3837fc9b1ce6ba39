// The Counters screen: one card per counter, and the confirmation of a removal.
import { $, keyed, renderConfirmation, setShown, setText } from "./dom.js";

export function bind(send) {
  $("add-counter").addEventListener("click", () => send({ type: "counter.add" }));
  $("removal-confirm").addEventListener("click", () => send({ type: "counter.confirmRemove" }));
  $("removal-cancel").addEventListener("click", () => send({ type: "counter.cancelRemove" }));
}

export function render(state, send) {
  renderConfirmation("removal", state.removalConfirmation);
  keyed($("counter-list"), state.counters, (counter) => {
    const card = document.createElement("div");
    card.className = "card counter";
    card.setAttribute("role", "group");
    card.innerHTML =
      '<h2 class="counter-name"></h2>' +
      '<div class="row">' +
      '<button class="act" data-do="counter.decrement" aria-label="Decrement">−</button>' +
      '<span class="count" aria-live="polite"></span>' +
      '<button class="act" data-do="counter.increment" aria-label="Increment">+</button>' +
      '<button class="act" data-do="counter.fact">Fact</button>' +
      '<button class="act" data-do="counter.random">Random</button>' +
      '<button class="act" data-do="counter.timer"></button>' +
      '<span class="spinner" hidden></span>' +
      '<button class="act push-right" data-do="counter.remove">Remove</button>' +
      '</div><p class="fact"></p><p class="error fact-error"></p><p class="error random-error"></p>';
    for (const button of card.querySelectorAll("button[data-do]")) {
      button.addEventListener("click", () => send({ type: button.dataset.do, id: counter.id }));
    }
    return card;
  }, (card, counter) => {
    setText(card.querySelector(".counter-name"), counter.name);
    card.setAttribute("aria-label", counter.name);
    setText(card.querySelector(".count"), counter.count);
    setText(card.querySelector('[data-do="counter.timer"]'), counter.isTimerOn ? "Stop timer" : "Start timer");
    setShown(card.querySelector(".spinner"), counter.isFactRequestInFlight || counter.isRandomNumberRequestInFlight);
    const fact = card.querySelector(".fact");
    setText(fact, counter.fact); setShown(fact, !!counter.fact);
    const factError = card.querySelector(".fact-error");
    setText(factError, counter.factError); setShown(factError, !!counter.factError);
    const randomError = card.querySelector(".random-error");
    setText(randomError, counter.randomNumberError); setShown(randomError, !!counter.randomNumberError);
  });
}
