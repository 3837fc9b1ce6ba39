// The lamp's section: a switch, a brightness slider, and its glow while it is on.
import { $, setShown, setText } from "./dom.js";

export function bind(send) {
  $("lamp-switch").addEventListener("click", () => send({ type: "lamp.switch" }));
  $("lamp-brightness").addEventListener("change", (event) =>
    send({ type: "lamp.brightness", level: Number(event.target.value) }));
}

export function render(state) {
  const lamp = state.lamp;
  setText($("lamp-switch"), lamp.isOn ? "Switch off" : "Switch on");
  $("lamp-switch").setAttribute("aria-pressed", String(lamp.isOn));
  $("lamp-brightness").disabled = !lamp.isOn;
  if ($("lamp-brightness").value !== String(lamp.brightness)) $("lamp-brightness").value = lamp.brightness;
  setText($("lamp-glow"), lamp.glow);
  setShown($("lamp-glow"), lamp.glow != null);
}
