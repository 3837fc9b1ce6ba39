import AppConfiguration
import ArgumentParser
import ComposableArchitecture
import FactClient
import Foundation
import RandomNumberClient
import SearchFeature
import SearchTerminal
import TerminalFrontend
import WeatherClient

/// Writes the command's output to standard output.
enum Output {
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func json(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    line(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  static var style: Style { Terminal.outputIsTerminal ? .forTerminal() : .plain }
}

/// Runs a client call with the command's dependencies and turns its error into a one-line message.
func callClient<T: Sendable>(
  _ dependencies: @escaping DependencyOverrides,
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  do {
    return try await withDependencies(dependencies) {
      try await operation()
    }
  } catch {
    throw CommandFailure(message: error.localizedDescription, cause: error)
  }
}

struct SearchCommand: FrontEndCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", abstract: "Find places by name (Open-Meteo geocoding).")

  @Argument(help: "The place to look for, e.g. \"Seoul\".") var query: String
  @Flag(help: "Print JSON.") var json = false
  @OptionGroup var clientOptions: ClientOptions

  func validate() throws {
    guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("The query must not be empty.")
    }
    // The app keeps no longer query (Search.maximumQueryLength); the error does not echo it.
    guard query.count <= Search.maximumQueryLength else {
      throw ValidationError(
        "The query is too long: \(query.count) characters, at most \(Search.maximumQueryLength).")
    }
  }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    let query = self.query
    let search = try await callClient(dependencies) {
      @Dependency(\.weatherClient) var weatherClient
      return try await weatherClient.search(query: query)
    }
    if json {
      try Output.json(search)
    } else if search.results.isEmpty {
      Output.line("No places found for \"\(query)\".")
    } else {
      for result in search.results {
        let place = result.displayName + (result.matchedName.map { " (“\($0)”)" } ?? "")
        Output.line("\(result.id)\t\(place)\t(\(result.latitude), \(result.longitude))")
      }
    }
    return 0
  }
}

struct ForecastCommand: FrontEndCommand {
  static let configuration = CommandConfiguration(
    commandName: "forecast", abstract: "Daily minimum and maximum temperatures of a place.")

  // `.unconditional`: the next word is the value even when it starts with a dash, so places west
  // or south of 0° are written as they are read: `--longitude -74.0`.
  @Option(parsing: .unconditional, help: "Latitude in degrees, -90…90.") var latitude: Double
  @Option(parsing: .unconditional, help: "Longitude in degrees, -180…180.") var longitude: Double
  @Option(help: "celsius or fahrenheit.") var unit: String = TemperatureUnit.celsius.rawValue
  @Flag(help: "Print JSON.") var json = false
  @OptionGroup var clientOptions: ClientOptions

  func validate() throws {
    guard (-90...90).contains(latitude) else {
      throw ValidationError("--latitude must be between -90 and 90.")
    }
    guard (-180...180).contains(longitude) else {
      throw ValidationError("--longitude must be between -180 and 180.")
    }
    guard TemperatureUnit(rawValue: unit) != nil else {
      throw ValidationError("--unit must be celsius or fahrenheit.")
    }
  }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    let location = GeocodingSearch.Result(
      country: "", latitude: latitude, longitude: longitude, id: 0, name: "")
    let unit = TemperatureUnit(rawValue: self.unit) ?? .celsius
    let forecast = try await callClient(dependencies) {
      @Dependency(\.weatherClient) var weatherClient
      return try await weatherClient.forecast(location: location, unit: unit)
    }
    if json {
      try Output.json(forecast, encoder: .openMeteo())
    } else {
      let weather = Search.State.Weather(id: location.id, forecast: forecast)
      ForecastChart.render(weather.days, style: Output.style).forEach(Output.line)
      if weather.isEstimate {
        Output.line(Output.style.dim("offline estimate: a climate model, not a forecast"))
      }
    }
    return 0
  }
}

struct FactCommand: FrontEndCommand {
  static let configuration = CommandConfiguration(
    commandName: "fact", abstract: "A fact about a number (number-trivia service).",
    usage: "app-cli fact <number> [--json] [<options>]")

  // A lone `-5` would be read as a flag named "5"; taking every word no flag claims lets a
  // negative number be written as it is (`fact -5`), and `validate()` checks there is one.
  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp("The number, e.g. 42 or -5.", valueName: "number"))
  var words: [String] = []
  @Flag(help: "Print JSON.") var json = false
  @OptionGroup var clientOptions: ClientOptions

  struct FactOutput: Encodable {
    let number: Int
    let fact: String
  }

  /// The one number given.
  var number: Int { words.first.flatMap { Int($0) } ?? 0 }

  func validate() throws {
    guard let word = words.first else {
      throw ValidationError("Missing expected argument '<number>'")
    }
    if let unknown = words.first(where: {
      $0.hasPrefix("-") && Int($0) == nil && !Self.isWholeNumber($0)
    }) {
      throw ValidationError("Unknown option '\(unknown.prefix(64))'")
    }
    guard words.count == 1 else {
      throw ValidationError(
        "Give one number, not \(words.count): \(words.joined(separator: " ").prefix(200))")
    }
    guard Int(word) != nil else {
      guard Self.isWholeNumber(word) else {
        throw ValidationError("'\(word.prefix(64))' is not a whole number")
      }
      throw ValidationError(
        "'\(word.prefix(64))\(word.count > 64 ? "…" : "")' is out of range: give a whole number"
          + " from \(Int.min) to \(Int.max)")
    }
  }

  /// Digits, with a minus sign or not: a whole number, however large.
  static func isWholeNumber(_ word: String) -> Bool {
    let digits = word.hasPrefix("-") ? word.dropFirst() : word[...]
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    let number = self.number
    let fact = try await callClient(dependencies) {
      @Dependency(\.factClient) var factClient
      return try await factClient.fetch(number)
    }
    if json {
      try Output.json(FactOutput(number: number, fact: fact))
    } else {
      Output.line(fact)
    }
    return 0
  }
}

struct RandomCommand: FrontEndCommand {
  static let configuration = CommandConfiguration(
    commandName: "random", abstract: "A random integer between --min and --max, inclusive.")

  @Option(parsing: .unconditional, help: "The smallest possible value.") var min: Int = 1
  @Option(parsing: .unconditional, help: "The largest possible value.") var max: Int = 100
  @Flag(help: "Print JSON.") var json = false
  @OptionGroup var clientOptions: ClientOptions

  func validate() throws {
    guard min <= max else { throw ValidationError("--min must not be greater than --max.") }
  }

  struct FactOutput: Encodable {
    let min: Int
    let max: Int
    let value: Int
  }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    let (min, max) = (self.min, self.max)
    let value = try await callClient(dependencies) {
      @Dependency(\.randomNumberClient) var randomNumberClient
      return try await randomNumberClient.fetch(min: min, max: max)
    }
    if json {
      try Output.json(FactOutput(min: min, max: max, value: value))
    } else {
      Output.line(String(value))
    }
    return 0
  }
}
