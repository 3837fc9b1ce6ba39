// The Search screen: the query, its results, and the forecast of the chosen place as a chart
// and a table. The debounce and "in flight" are the server's (the Search reducer).
import { $, escapeHTML, setShown, setText } from "./dom.js";

export function bind(send) {
  // Every keystroke is sent; the server debounces the search.
  $("search-query").addEventListener("input", (event) => send({ type: "search.query", query: event.target.value }));
  $("search-query").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); send({ type: "search.submit" }); }
  });
}

let renderedResults = "";
export function render(state, send) {
  const search = state.search;
  const input = $("search-query");
  if (document.activeElement !== input && input.value !== search.query) input.value = search.query;
  setShown($("search-spinner"), search.isSearchInFlight);
  setText($("search-error"), search.errorMessage);
  setShown($("search-error"), !!search.errorMessage);
  const key = JSON.stringify([search.results, search.weather && search.weather.id]);
  if (key !== renderedResults) {
    renderedResults = key;
    $("search-results").replaceChildren(...search.results.map((place) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = String(place.id);
      button.textContent = place.name + (place.admin1 ? ", " + place.admin1 : "") + " — " + place.country;
      if (search.weather && search.weather.id === place.id) button.classList.add("selected");
      button.addEventListener("click", () => send({ type: "search.select", id: place.id }));
      item.appendChild(button);
      return item;
    }));
  }
  const forecast = $("forecast");
  const loadingID = search.forecastRequestInFlightID;
  setShown(forecast, !!search.weather || loadingID != null);
  setShown($("forecast-spinner"), loadingID != null);
  const shownID = search.weather ? search.weather.id : loadingID;
  const place = search.results.find((p) => p.id === shownID);
  setText($("forecast-title"), place ? "Forecast for " + place.name : "Forecast");
  setShown($("forecast-estimate"), !!(search.weather && search.weather.isEstimate));
  drawForecast($("forecast-chart"), $("forecast-table"), search.weather);
}

// Where everything of the chart goes, in the coordinates of its viewBox. The margins leave room
// for the temperature labels on the left and for half of the last date label, which is centred
// on its point, on the right.
export function chartLayout(days) {
  const width = 520, height = 200, left = 40, right = 28, top = 14, bottom = 28;
  const low = Math.min(...days.map((d) => d.min)), high = Math.max(...days.map((d) => d.max));
  const span = Math.max(high - low, 1);
  const x = (i) => left + (days.length === 1 ? 0 : i * (width - left - right) / (days.length - 1));
  const y = (t) => top + (high - t) * (height - top - bottom) / span;
  return {
    width, height,
    gridLines: [low, (low + high) / 2, high].map((t) => ({ y: y(t), x1: left, x2: width - right, label: t.toFixed(0), labelX: left - 6 })),
    max: days.map((d, i) => ({ x: x(i), y: y(d.max) })),
    min: days.map((d, i) => ({ x: x(i), y: y(d.min) })),
    dates: days.map((d, i) => ({ x: x(i), y: height - 8, label: d.date.slice(5) })),
  };
}

// Redraws `chart` and `table` only when `weather` differs from what they show.
export function drawForecast(chart, table, weather) {
  const key = JSON.stringify(weather) || "null";
  if (chart.dataset.drawn === key) return;
  chart.dataset.drawn = key;
  if (!weather || weather.days.length === 0) { chart.replaceChildren(); table.replaceChildren(); return; }
  const days = weather.days;
  const layout = chartLayout(days);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + layout.width + " " + layout.height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Daily minimum and maximum temperatures");
  svg.id = "forecast-svg";
  const add = (name, attributes, text) => {
    const element = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text != null) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  const muted = { "font-size": 11, fill: "#6e6e73" };
  for (const line of layout.gridLines) {
    add("line", { x1: line.x1, x2: line.x2, y1: line.y, y2: line.y, stroke: "#e3e3e3" });
    add("text", { x: line.labelX, y: line.y + 4, "text-anchor": "end", ...muted }, line.label);
  }
  const series = (points, color, cls) => {
    add("polyline", { points: points.map((p) => p.x + "," + p.y).join(" "), fill: "none", stroke: color, "stroke-width": 2, class: cls });
    for (const p of points) add("circle", { cx: p.x, cy: p.y, r: 3, fill: color });
  };
  series(layout.max, "#d9480f", "series-max");
  series(layout.min, "#1c7ed6", "series-min");
  for (const date of layout.dates) {
    add("text", { x: date.x, y: date.y, "text-anchor": "middle", class: "date", ...muted }, date.label);
  }
  chart.replaceChildren(svg);
  const rows = ["<tr><th>Day</th><th>Min</th><th>Max</th></tr>"].concat(days.map((d) =>
    "<tr><td>" + escapeHTML(d.date) + "</td><td>" + d.min.toFixed(1) + " " + escapeHTML(d.unit) + "</td><td>" + d.max.toFixed(1) + " " + escapeHTML(d.unit) + "</td></tr>"));
  table.innerHTML = rows.join("");
}
