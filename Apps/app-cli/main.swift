// app-cli: picks the clients — live, or offline with --offline, and the database that keeps
// favorites and settings — and hands over to the terminal front end.
import FactClient
import FactClientLive
import FactClientOffline
import FavoriteClient
import FavoriteClientLive
import Foundation
import LiveHTTP
import LiveStorage
import RandomNumberClient
import RandomNumberClientLive
import SettingsClient
import SettingsClientLive
import TerminalFrontend
import WeatherClient
import WeatherClientLive
import WeatherClientOffline

let status = await TerminalApp.main(
  arguments: Array(CommandLine.arguments.dropFirst()),
  liveDependencies: { options in
    func url(_ text: String?, flag: String) throws -> URL? {
      guard let text else { return nil }
      guard let url = HTTPBaseURL.validated(text) else {
        throw ConfigurationError(variable: flag, value: text, expected: "an absolute http(s) URL")
      }
      return url
    }
    let timeout = options.timeout.map { Duration.milliseconds(Int64($0 * 1000)) }

    var weather = try WeatherClient.Configuration()
    weather.geocodingBaseURL =
      try url(options.geocodingURL, flag: "--geocoding-url") ?? weather.geocodingBaseURL
    weather.forecastBaseURL =
      try url(options.forecastURL, flag: "--forecast-url") ?? weather.forecastBaseURL
    weather.timeout = timeout ?? weather.timeout

    var fact = try FactClient.Configuration()
    fact.baseURL = try url(options.factURL, flag: "--fact-url") ?? fact.baseURL
    fact.timeout = timeout ?? fact.timeout

    var random = try RandomNumberClient.Configuration()
    if let source = options.randomSource {
      guard let parsed = RandomNumberClient.Configuration.Source(rawValue: source.lowercased())
      else {
        throw ConfigurationError(
          variable: "--random-source", value: source, expected: "system or http")
      }
      random.source = parsed
    }
    random.baseURL = try url(options.randomURL, flag: "--random-url") ?? random.baseURL
    random.timeout = timeout ?? random.timeout

    let (weatherClient, factClient, randomNumberClient) = (
      WeatherClient.live(configuration: weather), FactClient.live(configuration: fact),
      RandomNumberClient.live(configuration: random)
    )
    return { values in
      values.weatherClient = weatherClient
      values.factClient = factClient
      values.randomNumberClient = randomNumberClient
    }
  },
  offlineDependencies: { values in
    // Embedded data only: the gazetteer and climate model, computed facts, the system's random
    // numbers. The gazetteer loads in the background (once per process) while the first screen
    // is drawn, so the first search does not wait for it.
    Task.detached(priority: .utility) { _ = try? Gazetteer.bundled() }
    values.weatherClient = .offline()
    values.factClient = .offline()
    values.randomNumberClient = .live(configuration: .init(source: .system))
  },
  storage: { option in
    // The local profile's data, in one SQLite file (or in memory).
    let storage = try StorageLocation.open(
      StorageLocation.databasePath(flag: option, fileName: "app.sqlite"))
    let favoriteClient = FavoriteClient.live(storage: storage, owner: "local")
    let settingsClient = SettingsClient.live(storage: storage, owner: "local")
    return { values in
      values.favoriteClient = favoriteClient
      values.settingsClient = settingsClient
    }
  }
)
exit(status)
