import AppFeature
import ComposableArchitecture
import ComposableRecording
import FactClient
import FavoriteClient
import Foundation
import RandomNumberClient
import SettingsClient
import WeatherClient

extension AppFeature {
  /// Wraps every client the app's features call so that a recording keeps what each answered
  /// (`Store.startRecording(dependencies:)`); `uuid`, `date` and the clock the store wraps itself.
  public static func recordClients(_ values: inout DependencyValues, into tape: DependencyTape) {
    let fact = values.factClient
    values.factClient.fetch = { number in
      try await tape.record("factClient.fetch", arguments: [number]) {
        try await fact.fetch(number)
      }
    }
    let random = values.randomNumberClient
    values.randomNumberClient.fetch = { min, max in
      try await tape.record("randomNumberClient.fetch", arguments: [min, max]) {
        try await random.fetch(min, max)
      }
    }
    let weather = values.weatherClient
    values.weatherClient.search = { query in
      try await tape.record("weatherClient.search", arguments: [query]) {
        try await weather.search(query)
      }
    }
    values.weatherClient.forecast = { location in
      try await tape.record("weatherClient.forecast", arguments: [location]) {
        try await weather.forecast(location)
      }
    }
    values.weatherClient.forecastInUnit = { location, unit in
      try await tape.record("weatherClient.forecastInUnit", arguments: [location, unit]) {
        try await weather.forecastInUnit(location, unit)
      }
    }
    let favorites = values.favoriteClient
    values.favoriteClient.favorites = {
      try await tape.record("favoriteClient.favorites") { try await favorites.favorites() }
    }
    values.favoriteClient.favorite = { id, isFavorite in
      try await tape.record("favoriteClient.favorite", arguments: [id, isFavorite]) {
        try await favorites.favorite(id, isFavorite)
      }
    }
    let settings = values.settingsClient
    values.settingsClient.load = {
      try await tape.record("settingsClient.load") { try await settings.load() }
    }
    values.settingsClient.save = { stored in
      try await tape.record("settingsClient.save", arguments: [stored]) {
        try await settings.save(stored)
      }
    }
  }

  /// How a session of the app is recorded and written as a test.
  public static let recorded = RecordedFeature<State, Action>(
    name: "AppFeature",
    initialStateExpression: "AppFeature.State()",
    baseline: { baselineState() },
    recordClients: recordClients,
    testImports: { record in
      featureModules(in: baselineState(), recordedAs: record.initialState)
        + recordedClientModules
    })

  /// The modules of the clients ``recordClients(_:into:)`` wraps: a test written from a record
  /// sets their answers, so it imports them.
  static let recordedClientModules = [
    "FactClient", "FavoriteClient", "RandomNumberClient", "SettingsClient", "WeatherClient",
  ]

  /// The feature modules (`…Feature`) whose types a state holds, found by walking the value:
  /// a test written from a record builds those types, so it imports them. A feature composed
  /// into the app is found without being named here. Only the fields `recorded` has are walked,
  /// so a feature added after the session was recorded adds no import to its test.
  static func featureModules(in state: State, recordedAs recorded: RecordedValue) -> [String] {
    var modules: Set<String> = []
    var visited: Set<ObjectIdentifier> = []
    func visit(_ value: Any, _ recorded: RecordedValue?) {
      let type = type(of: value)
      // Every module named in the type's full name, generic arguments included.
      let name = String(reflecting: type)
      for qualified in name.split(whereSeparator: { "<>, ()[]:?".contains($0) }) {
        if let module = qualified.split(separator: ".").first, module.hasSuffix("Feature") {
          modules.insert(String(module))
        }
      }
      let fields: [RecordedValue.Field]? =
        if case .structure(_, let fields, _) = recorded { fields } else { nil }
      // A type seen in a field the record has is walked once; below a recorded struct, the
      // fields it lacks are left out.
      guard fields != nil || visited.insert(ObjectIdentifier(type)).inserted else { return }
      for child in Mirror(reflecting: value).children {
        guard let fields else {
          visit(child.value, nil)
          continue
        }
        // An observable state's storage is `_name`; the record writes `name`.
        let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
        guard let field = fields.first(where: { $0.label == label }) else { continue }
        visit(child.value, field.value)
      }
    }
    visit(state, recorded)
    return modules.sorted()
  }

  /// What `AppFeature.State()` makes with `uuid` counting up from zero and `date` at 1970: a
  /// test made from a recording starts from it and sets what differed.
  public static func baselineState() -> State {
    withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      State()
    }
  }
}
