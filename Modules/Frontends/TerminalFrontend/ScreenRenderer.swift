import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SettingsFeature
import WeatherClient

/// Turns the app's state into the text of one screen. Pure: the same state and view state always
/// give the same text, which is what the rendering tests check.
public enum ScreenRenderer {
  /// The screen of the terminal app's state.
  public static func render(_ state: TerminalFeature.State, style: Style) -> String {
    render(state.app, view: state.view, style: style)
  }

  public static func render(_ state: AppFeature.State, view: ViewState, style: Style) -> String {
    var lines: [String] = []
    lines.append(style.bold(state.header))
    lines.append(tabBar(state.selectedTab, style: style))
    lines.append(String(repeating: "─", count: 60))
    switch state.selectedTab {
    case .counters:
      lines += counters(state.counters, view: view, style: style)
      if case .confirmRemoval(let alert) = state.destination {
        lines += confirmation(
          alert.title, message: alert.message, confirm: alert.buttons.first?.label)
      }
    case .search: lines += search(state.search, view: view, style: style)
    case .settings: lines += settings(state.settings, view: view, style: style)
    case .episodes: lines += episodes(state.episodes, view: view, style: style)
    }
    lines.append("")
    lines.append(
      style.dim(
        help(
          for: state.selectedTab, view: view, isOnEpisodeScreen: !state.episodes.path.isEmpty)))
    return lines.joined(separator: "\n")
  }

  static func tabBar(_ selected: AppFeature.Tab, style: Style) -> String {
    AppFeature.Tab.allCases.enumerated().map { index, tab in
      let title = "\(index + 1) \(tab.rawValue.capitalized)"
      return tab == selected ? style.inverse("[\(title)]") : " \(title) "
    }
    .joined(separator: " ")
  }

  static func marker(_ isSelected: Bool, style: Style) -> String {
    isSelected ? style.bold("›") : " "
  }

  // MARK: Counters

  static func counters(
    _ counters: IdentifiedArrayOf<Counter.State>, view: ViewState, style: Style
  ) -> [String] {
    guard !counters.isEmpty else { return [style.dim("No counters. Press a to add one.")] }
    var lines: [String] = []
    for (index, counter) in counters.enumerated() {
      let selected = index == view.selectedCounter
      var line =
        "\(marker(selected, style: style)) Counter \(index + 1)   count: \(style.bold(String(counter.count)))"
      line += "   timer: \(counter.isTimerOn ? style.green("on ⏱") : "off")"
      lines.append(line)
      if counter.isFactRequestInFlight {
        lines.append("    fact: \(style.yellow("⟳ loading…"))")
      } else if let fact = counter.fact {
        lines.append("    fact: \(fact)")
      }
      if let error = counter.factError {
        lines.append("    \(style.red("fact failed: \(error)"))")
      }
      if counter.isRandomNumberRequestInFlight {
        lines.append("    random: \(style.yellow("⟳ loading…"))")
      }
      if let error = counter.randomNumberError {
        lines.append("    \(style.red("random number failed: \(error)"))")
      }
    }
    return lines
  }

  // MARK: Search

  static func search(_ search: Search.State, view: ViewState, style: Style) -> [String] {
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
      let place = [result.name, result.admin1, result.country].compactMap { $0 }
        .joined(separator: ", ")
      var line = "\(marker(index == view.selectedResult && !editing, style: style)) \(place)"
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

  // MARK: Settings

  static func settings(_ settings: Settings.State, view: ViewState, style: Style) -> [String] {
    var lines: [String] = []
    for row in SettingsRow.allCases {
      let selected = row.rawValue == view.selectedSetting
      let value: String
      switch row {
      case .displayName:
        value =
          view.editing == .displayName
          ? settings.displayName + "█"
          : (settings.displayName.isEmpty ? style.dim("(none)") : settings.displayName)
      case .digest: value = "‹ \(settings.digest.rawValue) ›"
      case .enableNotifications: value = toggle(settings.enableNotifications, style: style)
      case .sendEmailNotifications: value = toggle(settings.sendEmailNotifications, style: style)
      case .sendMobileNotifications: value = toggle(settings.sendMobileNotifications, style: style)
      case .protectMyPosts: value = toggle(settings.protectMyPosts, style: style)
      case .isHapticFeedbackEnabled: value = toggle(settings.isHapticFeedbackEnabled, style: style)
      case .temperatureUnit: value = "‹ \(settings.temperatureUnit.symbol) ›"
      case .reset: value = ""
      }
      let label = row.label.padding(toLength: 18, withPad: " ", startingAt: 0)
      lines.append("\(marker(selected, style: style)) \(label) \(value)")
    }
    if let error = settings.displayNameError {
      lines.append(style.red(error))
    }
    if let error = settings.storageError {
      lines.append(style.red(error))
    }
    if case .confirmReset(let dialog) = settings.destination {
      lines += confirmation(
        dialog.title, message: dialog.message, confirm: dialog.buttons.first?.label)
    }
    return lines
  }

  /// A confirmation in a box: its title, its message and the keys that answer it.
  static func confirmation(
    _ title: TextState, message: TextState?, confirm: TextState?
  ) -> [String] {
    box(
      [title.string, message?.string].compactMap { $0 }
        + ["Enter/y \(confirm?.string ?? "OK") · Esc/n Cancel"])
  }

  /// Lines framed by a box, after a blank line.
  static func box(_ lines: [String]) -> [String] {
    let width = lines.map(\.count).max() ?? 0
    let rule = String(repeating: "─", count: width + 2)
    return [""] + ["┌" + rule + "┐"]
      + lines.map { "│ " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + " │" }
      + ["└" + rule + "┘"]
  }

  static func toggle(_ isOn: Bool, style: Style) -> String {
    isOn ? style.green("[x] on") : "[ ] off"
  }

  // MARK: Episodes

  static func episodes(_ episodes: Episodes.State, view: ViewState, style: Style) -> [String] {
    if let screen = episodes.path.last {
      return episodeScreen(screen, style: style)
    }
    var lines: [String] = []
    for (index, episode) in episodes.episodes.enumerated() {
      let heart = episode.isFavorite ? style.red("♥") : "♡"
      lines.append(
        "\(marker(index == view.selectedEpisode, style: style)) \(heart) \(episode.title)")
    }
    if let error = episodes.loadError {
      lines.append(style.red(error))
    }
    if let alerted = episodes.episodes.first(where: { $0.alert != nil }), let alert = alerted.alert
    {
      lines += failureAlert("\(alert.title.string) (\(alerted.title))", style: style)
    }
    return lines
  }

  /// The episode screen on top of the navigation stack.
  static func episodeScreen(_ screen: EpisodeDetail.State, style: Style) -> [String] {
    let heart = screen.isFavorite ? style.red("♥ favorite") : "♡ not a favorite"
    var lines = [
      style.dim("Episodes ›") + " " + style.bold(screen.title),
      "",
      "  \(heart)",
    ]
    if let alert = screen.alert {
      lines += failureAlert(alert.title.string, style: style)
    }
    return lines
  }

  /// A favorite's failure alert, in red in a box, and how to dismiss it.
  static func failureAlert(_ text: String, style: Style) -> [String] {
    let text = " \(text) "
    return [
      "",
      "┌" + String(repeating: "─", count: text.count) + "┐",
      "│" + style.red(text) + "│",
      "└" + String(repeating: "─", count: text.count) + "┘",
      style.bold("Press Enter to dismiss."),
    ]
  }

  // MARK: Help

  static func help(
    for tab: AppFeature.Tab, view: ViewState, isOnEpisodeScreen: Bool = false
  ) -> String {
    if view.editing != nil {
      return "type to edit · Backspace delete · Enter/Esc done · Ctrl-C quit"
    }
    let screen: String
    switch tab {
    case .counters:
      screen = "↑/↓ select · +/- count · f fact · r random · t timer · a add · x remove"
    case .search: screen = "/ type · ↑/↓ select · Enter forecast · c clear"
    case .settings: screen = "↑/↓ select · Enter/Space change · ←/→ choose"
    case .episodes:
      screen =
        isOnEpisodeScreen
        ? "Enter/Space favorite · Esc/← back" : "↑/↓ select · Enter/Space favorite · →/o open"
    }
    return "\(screen) · 1-4/Tab screens · q quit"
  }
}
