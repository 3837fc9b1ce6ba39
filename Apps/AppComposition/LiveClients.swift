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
    let weather = WeatherClient.live(configuration: try .init(settings: settings))
    let fact = FactClient.live(configuration: try .init(settings: settings))
    let random = RandomNumberClient.live(configuration: try .init(settings: settings))
    return { values in
      values.weatherClient = weather
      values.factClient = fact
      values.randomNumberClient = random
    }
  }
}
