import { chartLayout, drawForecast } from "/search.js";
import { assert, equal, fixture, test } from "./harness.js";

function days(count, low, high) {
  return Array.from({ length: count }, (_, i) => ({
    date: "2026-11-" + String(20 + i).padStart(2, "0"),
    min: low + i, max: high - i, unit: "°C",
  }));
}

test("every point of the chart is inside its view box", () => {
  const layout = chartLayout(days(7, -15, 40));
  for (const p of layout.max.concat(layout.min, layout.dates)) {
    assert(p.x >= 0 && p.x <= layout.width && p.y >= 0 && p.y <= layout.height, JSON.stringify(p));
  }
  equal(layout.dates.map((d) => d.label), ["11-20", "11-21", "11-22", "11-23", "11-24", "11-25", "11-26"]);
});

test("every label of the drawn chart is inside the chart, the last date too", () => {
  const container = fixture();
  const chart = document.createElement("div"), table = document.createElement("table");
  chart.style.width = "520px";
  container.append(chart, table);
  drawForecast(chart, table, { id: 1, isEstimate: false, days: days(7, -15, 40) });
  const svg = chart.querySelector("svg");
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const texts = Array.from(svg.querySelectorAll("text"));
  equal(texts.length, 3 + 7);
  for (const text of texts) {
    const box = text.getBBox();
    assert(box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= height,
      "'" + text.textContent + "' is clipped: " + JSON.stringify([box.x, box.y, box.width, box.height]));
  }
});

test("a single day is drawn, and the table escapes what the server sent", () => {
  const container = fixture();
  const chart = document.createElement("div"), table = document.createElement("table");
  container.append(chart, table);
  drawForecast(chart, table, { id: 2, isEstimate: true, days: [{ date: "2026-11-23", min: 1, max: 2, unit: "<b>" }] });
  equal(chart.querySelectorAll("circle").length, 2);
  assert(table.innerHTML.includes("&lt;b&gt;") && !table.querySelector("b"), table.innerHTML);
  drawForecast(chart, table, null);
  equal(chart.children.length, 0);
  equal(table.children.length, 0);
});
