/// The unit temperatures are given in: what Settings keeps, what Search requests forecasts in and
/// what the weather client sends to the service. A word of the app's vocabulary, shared by
/// features and client interfaces, so it lives below both (`Modules/Vocabulary`).
public enum TemperatureUnit: String, CaseIterable, Codable, Hashable, Sendable {
  /// Degrees Celsius, Open-Meteo's default.
  case celsius
  /// Degrees Fahrenheit.
  case fahrenheit

  /// The unit's symbol as Open-Meteo writes it in `daily_units`, e.g. `"°C"`.
  public var symbol: String {
    switch self {
    case .celsius: "°C"
    case .fahrenheit: "°F"
    }
  }
}
