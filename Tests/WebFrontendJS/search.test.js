import { bind, chartLayout, drawForecast, render } from "/search.js";
import { assert, equal, fixture, read, test } from "./harness.js";

function days(count, low, high) {
  return Array.from({ length: count }, (_, i) => ({
    date: "2026-11-" + String(20 + i).padStart(2, "0"),
    min: low + i, max: high - i, unit: "°C",
  }));
}

test("every point of the chart is inside its view box", () => {
  const layout = chartLayout(days(7, -15, 40), 300);
  for (const p of layout.max.concat(layout.min, layout.dates)) {
    assert(p.x >= 0 && p.x <= layout.width && p.y >= 0 && p.y <= layout.height, JSON.stringify(p));
  }
  // Named as the terminal names them: "Today", then the weekday (2026-11-21 is a Saturday).
  equal(layout.dates.map((d) => d.label), ["Today", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu"]);
  const container = fixture();
  const chart = document.createElement("div"), table = document.createElement("table");
  container.append(chart, table);
  drawForecast(chart, table, { id: 9, isEstimate: false, days: days(2, 1, 9) });
  equal(Array.from(table.querySelectorAll("time"), (t) => [t.textContent, t.getAttribute("datetime")]),
        [["Today", "2026-11-20"], ["Sat", "2026-11-21"]]);
});

for (const shownWidth of [300, 520, 900]) {
  test("every label of a chart drawn " + shownWidth + " px wide is inside it, at its own size", () => {
    const container = fixture();
    const chart = document.createElement("div"), table = document.createElement("table");
    chart.style.width = shownWidth + "px";
    container.append(chart, table);
    drawForecast(chart, table, { id: 1, isEstimate: false, days: days(7, -15, 40) });
    const svg = chart.querySelector("svg");
    const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
    equal(width, shownWidth, "one unit of the drawing is one pixel on screen");
    const texts = Array.from(svg.querySelectorAll("text"));
    equal(texts.length, 3 + 7 + 1 + 2);
    for (const text of texts) {
      const box = text.getBBox();
      assert(box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= height,
        "'" + text.textContent + "' is clipped: " + JSON.stringify([box.x, box.y, box.width, box.height]));
    }
    const legend = Array.from(svg.querySelectorAll("text.legend"), (t) => t.getBBox());
    assert(legend[0].x + legend[0].width < legend[1].x, "the legend's entries overlap");
  });
}

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

test("the chart names its unit and has a legend for both lines", () => {
  const container = fixture();
  const chart = document.createElement("div"), table = document.createElement("table");
  container.append(chart, table);
  drawForecast(chart, table, { id: 3, isEstimate: false, days: days(7, 1, 20).map((d) => ({ ...d, unit: "°F" })) });
  equal(chart.querySelector("text.unit").textContent, "°F");
  equal(Array.from(chart.querySelectorAll("text.legend"), (t) => t.textContent), ["Maximum", "Minimum"]);
  const stroke = (selector) => chart.querySelector(selector).getAttribute("stroke");
  const legendLines = Array.from(chart.querySelectorAll("line")).filter((l) => l.getAttribute("stroke-width") === "3");
  equal(legendLines.map((l) => l.getAttribute("stroke")), [stroke("polyline.series-max"), stroke("polyline.series-min")]);
});

test("keystrokes typed while a query is on its way send only the newest next", async () => {
  const container = fixture();
  const input = document.createElement("input");
  input.id = "search-query";
  const results = document.createElement("ul");
  results.id = "search-results";
  container.append(input, results);
  const sent = [];
  const answers = [];
  bind((action) => {
    sent.push(action.query);
    return new Promise((resolve) => answers.push(resolve));
  });
  for (const query of ["S", "Se", "Seo", "Seou", "Seoul"]) {
    input.value = query;
    input.dispatchEvent(new Event("input"));
  }
  equal(sent, ["S"], "one request at a time");
  answers.shift()();
  await new Promise((resolve) => setTimeout(resolve, 0));
  equal(sent, ["S", "Seoul"], "then only the newest query");
  answers.shift()();
  await new Promise((resolve) => setTimeout(resolve, 0));
  equal(sent, ["S", "Seoul"], "nothing more to send");
});

test("a place found by another of its names says which, as text", () => {
  fixture().innerHTML = '<section id="search">' + read("/search.html") + "</section>";
  const results = [
    { id: 1, name: "New York City", admin1: "New York", country: "United States", latitude: 0, longitude: 0 },
    { id: 2, name: "Jakarta", country: "Indonesia", latitude: 0, longitude: 0, matchedName: "<b>Batavia</b>" },
  ];
  render({ search: { query: "new york", results, isSearchInFlight: false, errorMessage: null, weather: null,
                     forecastRequestInFlightID: null } }, () => {});
  const buttons = document.querySelectorAll("#search-results button");
  equal(Array.from(buttons, (b) => b.textContent),
        ["New York City, New York — United States", "Jakarta — Indonesia (“<b>Batavia</b>”)"]);
  equal(buttons[1].querySelector(".matched-name").textContent, " (“<b>Batavia</b>”)");
  assert(!document.querySelector("#search-results b"), "the name is text, not markup");
});
