import ComposableArchitecture
import SearchFeature
import TerminalFrontend

/// The weather search: the query field, the places found and the forecast of the one chosen.
public enum SearchScreen: TerminalScreen {
  public typealias Root = Search

  public static func render(_ state: Search.State, view: ViewState, style: Style) -> [String] {
    let search = state
    var lines: [String] = []
    let editing = view.editing == .searchQuery
    let field =
      editing
      ? search.searchQuery + "█"
      : (search.searchQuery.isEmpty ? style.dim("(press / to type a city)") : search.searchQuery)
    lines.append(
      "Search: \(field)\(search.isSearchInFlight ? "  " + style.yellow("⟳ searching…") : "")")
    if let error = search.errorMessage {
      lines.append(style.red("error: \(error)"))
    }
    if search.results.isEmpty, !search.searchQuery.isEmpty, !search.isSearchInFlight,
      search.errorMessage == nil
    {
      lines.append(style.dim("No places found."))
    }
    for (index, result) in search.results.enumerated() {
      let place = result.displayName
      let marker = ScreenRenderer.marker(index == view.selectedResult && !editing, style: style)
      var line = "\(marker) \(place)"
      // Found by another of its names: say which, or the row looks like a wrong answer.
      if let matched = result.matchedName { line += style.dim("  (“\(matched)”)") }
      if search.resultForecastRequestInFlight?.id == result.id {
        line += "  " + style.yellow("⟳ loading forecast…")
      }
      lines.append(line)
    }
    if let weather = search.weather,
      let place = search.results.first(where: { $0.id == weather.id })
    {
      lines.append("")
      lines.append(
        style.bold("Forecast for \(place.name)")
          + (weather.isEstimate ? "  " + style.yellow("(offline estimate)") : ""))
      lines += ForecastChart.render(weather.days, style: style).map { "  " + $0 }
    }
    lines.append("")
    lines.append(
      style.dim(
        view.isOffline
          ? "Offline: places from GeoNames (CC BY 4.0), forecasts estimated from a climate model"
          : "Weather data by Open-Meteo (https://open-meteo.com)"))
    return lines
  }

  public static func help(_ state: Search.State, view: ViewState) -> String {
    "/ type · ↑/↓ select · Enter forecast · c clear"
  }

  public static func action(
    for key: Key, state: Search.State, view: inout ViewState
  ) -> Search.Action? {
    if view.editing == .searchQuery {
      return view.edit(state.searchQuery, with: key).map { .searchQueryChanged($0) }
    }
    let results = state.results
    if let row = moved(view.selectedResult, by: key, count: results.count) {
      view.selectedResult = row
      return nil
    }
    switch key {
    case .character("/"), .character("i"):
      view.editing = .searchQuery
      return nil
    case .enter:
      guard !results.isEmpty else { return nil }
      return .searchResultTapped(results[view.selectedResult])
    case .character("c"), .escape:
      return .searchQueryChanged("")
    default:
      return nil
    }
  }

  public static func update(
    _ view: inout ViewState, after action: Search.Action?, state: Search.State
  ) {
    if case .searchQueryChanged? = action {
      view.selectedResult = 0
    }
    view.selectedResult = clamp(view.selectedResult, count: state.results.count)
  }
}

extension ViewState {
  /// The selected place of the search screen.
  public var selectedResult: Int {
    get { self[selection: "search"] }
    set { self[selection: "search"] = newValue }
  }
}

extension ViewState.Field {
  /// The search query.
  public static let searchQuery = Self("searchQuery")
}
