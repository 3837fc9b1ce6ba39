import Foundation
import SearchFeature
import TerminalFrontend

/// Draws a forecast as one line a day: the day, its minimum, a bar from minimum to maximum on a
/// scale shared by all days, and its maximum.
///
/// ```
/// Today   -3.1°C  ·····████████······  5.2°C
/// Tue     -1.0°C  ·······██████████··  7.9°C
/// ```
public enum ForecastChart {
  public static func render(_ days: [Search.State.Weather.Day], width: Int = 24, style: Style)
    -> [String]
  {
    guard let low = days.map(\.temperatureMin).min(), let high = days.map(\.temperatureMax).max()
    else { return [style.dim("No forecast days.")] }
    let span = max(high - low, 0.000_1)
    func column(_ value: Double) -> Int {
      Int(((value - low) / span * Double(width - 1)).rounded())
    }
    let minimums = days.map { format($0.temperatureMin, $0.temperatureMinUnit) }
    let minimumWidth = minimums.map(\.count).max() ?? 0
    // Both columns right-aligned, so that the decimal points line up.
    let maximums = days.map { format($0.temperatureMax, $0.temperatureMaxUnit) }
    let maximumWidth = maximums.map(\.count).max() ?? 0
    return days.enumerated().map { index, day in
      let from = max(0, min(width - 1, column(day.temperatureMin)))
      let to = max(from, min(width - 1, column(day.temperatureMax)))
      let bar =
        String(repeating: "·", count: from) + String(repeating: "█", count: to - from + 1)
        + String(repeating: "·", count: width - 1 - to)
      let label = dayLabel(day.date, index: index).padding(toLength: 6, withPad: " ", startingAt: 0)
      let minimum =
        String(repeating: " ", count: minimumWidth - minimums[index].count)
        + minimums[index]
      let maximum =
        String(repeating: " ", count: maximumWidth - maximums[index].count) + maximums[index]
      return "\(label)  \(style.cyan(minimum))  \(bar)  \(style.yellow(maximum))"
    }
  }

  /// "Today" for the first day, then the weekday. Forecast days are calendar days at UTC
  /// midnight, so they are named in UTC.
  static func dayLabel(_ date: Date, index: Int) -> String {
    guard index > 0 else { return "Today" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let weekday = calendar.component(.weekday, from: date)
    return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday - 1]
  }

  static func format(_ value: Double, _ unit: String) -> String {
    "\(String(format: "%.1f", value))\(unit)"
  }
}
