import AppConfiguration
import ComposableArchitecture
import Dependencies
import FactClient
import FactClientLive
import FactClientOffline
import Foundation
import RandomNumberClient
import RandomNumberClientLive
import WeatherClient
import WeatherClientLive
import WeatherClientOffline

/// The clients of the services, for both executables.
enum LiveClients {
  /// When the embedded gazetteer of `--offline` is loaded.
  enum GazetteerLoading {
    /// Before anything else: a broken build stops the process here (the server).
    case now
    /// While the first screen is drawn, so that the first search does not wait (the terminal).
    case inBackground
  }

  /// The live clients configured by `settings` (flags over environment over defaults, each
  /// checked), or with `offline` the clients over embedded data: the gazetteer and climate model,
  /// computed facts, the system's random numbers.
  static func dependencies(
    settings: ConfigurationReader, offline: Bool, gazetteer: GazetteerLoading
  ) throws -> DependencyOverrides {
    // Checked whether or not they are used: a bad value is refused the same way with
    // `--offline` (`HTTP_TIMEOUT_SECONDS=soon` as `--timeout soon`).
    let weatherConfiguration = try WeatherClient.Configuration(settings: settings)
    let factConfiguration = try FactClient.Configuration(settings: settings)
    let randomConfiguration = try RandomNumberClient.Configuration(settings: settings)
    if offline {
      switch gazetteer {
      case .now: _ = try Gazetteer.bundled()
      case .inBackground: Task.detached(priority: .utility) { _ = try? Gazetteer.bundled() }
      }
      let random = RandomNumberClient.live(configuration: .init(source: .system))
      return { values in
        values.weatherClient = .offline()
        values.factClient = .offline()
        values.randomNumberClient = random
      }
    }
    let weather = WeatherClient.live(configuration: weatherConfiguration)
    let fact = FactClient.live(configuration: factConfiguration)
    let random = RandomNumberClient.live(configuration: randomConfiguration)
    return { values in
      values.weatherClient = weather
      values.factClient = fact
      values.randomNumberClient = random
    }
  }
}
