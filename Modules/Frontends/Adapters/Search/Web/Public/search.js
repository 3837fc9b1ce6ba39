// The Search screen: the query, its results, and the forecast of the chosen place as a chart
// and a table. The debounce and "in flight" are the server's (the Search reducer).
import { $, escapeHTML, setShown, setText } from "./dom.js";

// While one query is on its way to the server, later keystrokes only replace the one to send
// next: a fast typist sends a few requests, not one per key (the server debounces the search).
let querySending = false;
let nextQuery = null;
function sendQuery(send, query) {
  if (querySending) { nextQuery = query; return; }
  querySending = true;
  Promise.resolve(send({ type: "search.query", query })).finally(() => {
    querySending = false;
    if (nextQuery !== null) { const query = nextQuery; nextQuery = null; sendQuery(send, query); }
  });
}

let lastWeather = null;

export function bind(send) {
  // The chart is drawn for the width it has: redrawn when the window changes size.
  window.addEventListener("resize", () => {
    if ($("forecast-chart")) drawForecast($("forecast-chart"), $("forecast-table"), lastWeather);
  });
  $("search-query").addEventListener("input", (event) => sendQuery(send, event.target.value));
  $("search-query").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); send({ type: "search.submit" }); }
    if (event.key === "ArrowDown") { event.preventDefault(); focusResult(0); }
  });
  // ↑/↓ move between the results, ↑ from the first goes back to the query.
  $("search-results").addEventListener("keydown", (event) => {
    const buttons = Array.from($("search-results").querySelectorAll("button"));
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    if (event.key === "ArrowDown") { event.preventDefault(); focusResult(index + 1); }
    if (event.key === "ArrowUp") {
      event.preventDefault();
      if (index === 0) $("search-query").focus(); else focusResult(index - 1);
    }
  });
}

function focusResult(index) {
  const buttons = $("search-results").querySelectorAll("button");
  if (buttons.length) buttons[Math.min(index, buttons.length - 1)].focus();
}

let renderedResults = "";
export function render(state, send) {
  const search = state.search;
  const input = $("search-query");
  if (document.activeElement !== input && input.value !== search.query) input.value = search.query;
  setShown($("search-spinner"), search.isSearchInFlight);
  setText($("search-error"), search.errorMessage);
  setShown($("search-error"), !!search.errorMessage);
  // A finished search that found nothing says so, as the terminal does.
  setShown($("search-empty"), !search.isSearchInFlight && search.query.trim() !== "" &&
    search.results.length === 0 && !search.errorMessage);
  const key = JSON.stringify([search.results, search.weather && search.weather.id]);
  if (key !== renderedResults) {
    renderedResults = key;
    // The result that has focus keeps it when the list is drawn again (Enter on a result marks
    // it chosen, which redraws the list).
    const focused = $("search-results").contains(document.activeElement)
      ? document.activeElement.dataset.id : null;
    $("search-results").replaceChildren(...search.results.map((place) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = String(place.id);
      // The division unless it has the place's name (Seoul is in Seoul), as in the terminal.
      const division = place.admin1 && place.admin1 !== place.name ? ", " + place.admin1 : "";
      button.textContent = place.name + division + " — " + place.country;
      // Found by another of its names: say which, or the row looks like a wrong answer.
      if (place.matchedName) {
        const matched = document.createElement("span");
        matched.className = "matched-name";
        matched.textContent = " (“" + place.matchedName + "”)";
        button.appendChild(matched);
      }
      if (search.weather && search.weather.id === place.id) button.classList.add("selected");
      button.addEventListener("click", () => send({ type: "search.select", id: place.id }));
      item.appendChild(button);
      return item;
    }));
    if (focused != null) {
      const again = $("search-results").querySelector('button[data-id="' + focused + '"]');
      if (again) again.focus(); else $("search-query").focus();
    }
  }
  const forecast = $("forecast");
  const loadingID = search.forecastRequestInFlightID;
  const shownID = search.weather ? search.weather.id : loadingID;
  const place = search.results.find((p) => p.id === shownID);
  // A forecast is shown with its place among the results, as in the terminal.
  setShown(forecast, !!place);
  setShown($("forecast-spinner"), loadingID != null);
  setText($("forecast-title"), place ? "Forecast for " + place.name : "Forecast");
  setShown($("forecast-estimate"), !!(search.weather && search.weather.isEstimate));
  setText($("forecast-credit"), !search.weather ? "" : search.weather.isEstimate
    ? "Offline estimate from a climate model, not a forecast. Places from GeoNames (CC BY 4.0)."
    : "Weather data by Open-Meteo.com (CC BY 4.0).");
  lastWeather = search.weather;
  drawForecast($("forecast-chart"), $("forecast-table"), search.weather);
}

// A forecast day as both front ends name it: "Today" for the first (the place's today), then the
// weekday. Days are calendar dates ("2026-11-28"), named in UTC as the terminal names them.
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
export function dayLabel(date, index) {
  return index === 0 ? "Today" : weekdays[new Date(date + "T00:00:00Z").getUTCDay()];
}

// Where everything of the chart goes, in the coordinates of its viewBox. The margins leave room
// for the temperature labels on the left and for half of the last date label, which is centred
// on its point, on the right.
// `width` is the chart's width on screen, so its text keeps its size on a phone.
export function chartLayout(days, width = 720) {
  const height = 240, left = 44, right = 28, top = 34, bottom = 28;
  const low = Math.min(...days.map((d) => d.min)), high = Math.max(...days.map((d) => d.max));
  const span = Math.max(high - low, 1);
  const x = (i) => left + (days.length === 1 ? 0 : i * (width - left - right) / (days.length - 1));
  const y = (t) => top + (high - t) * (height - top - bottom) / span;
  return {
    width, height,
    gridLines: [low, (low + high) / 2, high].map((t) => ({ y: y(t), x1: left, x2: width - right, label: t.toFixed(0), labelX: left - 6 })),
    max: days.map((d, i) => ({ x: x(i), y: y(d.max) })),
    min: days.map((d, i) => ({ x: x(i), y: y(d.min) })),
    dates: days.map((d, i) => ({ x: x(i), y: height - 8, label: dayLabel(d.date, i) })),
    // The unit over the temperature labels, and the legend of the two lines on the right.
    unit: { x: left - 6, y: top - 14, label: days[0].unit },
    legend: [
      { x: width - right - 170, y: 14, label: "Maximum", series: "max" },
      { x: width - right - 80, y: 14, label: "Minimum", series: "min" },
    ],
  };
}

// Redraws `chart` and `table` only when `weather` differs from what they show.
export function drawForecast(chart, table, weather) {
  const width = Math.max(280, Math.min(chart.clientWidth || 720, 960));
  const key = width + " " + (JSON.stringify(weather) || "null");
  if (chart.dataset.drawn === key) return;
  chart.dataset.drawn = key;
  if (!weather || weather.days.length === 0) { chart.replaceChildren(); table.replaceChildren(); return; }
  const days = weather.days;
  const layout = chartLayout(days, width);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + layout.width + " " + layout.height);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Daily minimum and maximum temperatures in " + days[0].unit + "; the table below lists them");
  svg.id = "forecast-svg";
  const add = (name, attributes, text) => {
    const element = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text != null) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  const muted = { "font-size": 12, fill: "#595959" };
  for (const line of layout.gridLines) {
    add("line", { x1: line.x1, x2: line.x2, y1: line.y, y2: line.y, stroke: "#e3e3e3" });
    add("text", { x: line.labelX, y: line.y + 4, "text-anchor": "end", ...muted }, line.label);
  }
  const series = (points, color, cls) => {
    add("polyline", { points: points.map((p) => p.x + "," + p.y).join(" "), fill: "none", stroke: color, "stroke-width": 2, class: cls });
    for (const p of points) add("circle", { cx: p.x, cy: p.y, r: 3, fill: color });
  };
  const colors = { max: "#c23a0c", min: "#1864ab" };
  series(layout.max, colors.max, "series-max");
  series(layout.min, colors.min, "series-min");
  add("text", { x: layout.unit.x, y: layout.unit.y, "text-anchor": "end", class: "unit", ...muted }, layout.unit.label);
  for (const item of layout.legend) {
    add("line", { x1: item.x, x2: item.x + 18, y1: item.y - 4, y2: item.y - 4, stroke: colors[item.series], "stroke-width": 3 });
    add("text", { x: item.x + 24, y: item.y, class: "legend legend-" + item.series, "font-size": 12, fill: "#1d1d1f" }, item.label);
  }
  for (const date of layout.dates) {
    add("text", { x: date.x, y: date.y, "text-anchor": "middle", class: "date", ...muted }, date.label);
  }
  chart.replaceChildren(svg);
  const rows = ["<tr><th>Day</th><th>Min</th><th>Max</th></tr>"].concat(days.map((d, i) =>
    '<tr><td><time datetime="' + escapeHTML(d.date) + '">' + escapeHTML(dayLabel(d.date, i)) + "</time></td><td>" + d.min.toFixed(1) + " " + escapeHTML(d.unit) + "</td><td>" + d.max.toFixed(1) + " " + escapeHTML(d.unit) + "</td></tr>"));
  table.innerHTML = rows.join("");
}
