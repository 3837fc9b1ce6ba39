import AppFeature
import ComposableArchitecture
import CounterFeature
import FactClient
import FavoriteClient
import Foundation
import RandomNumberClient
import SearchFeature
import SessionTestWriter
import SettingsClient
import SettingsFeature
import Testing
import WeatherClient

/// A short session of the app on in-memory clients and an immediate clock, recorded.
@MainActor
func recordedSession(limit: Int = 10_000) async -> SessionRecording<
  AppFeature.State, AppFeature.Action
> {
  let store = Store(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.uuid = .incrementing
    $0.continuousClock = ImmediateClock()
    $0.factClient = .mock
    $0.randomNumberClient = .constant(7)
    $0.weatherClient = .previewValue
    $0.favoriteClient = .inMemory()
    $0.settingsClient = .inMemory()
  }
  let recording = store.startRecording(limit: limit, dependencies: AppFeature.recordClients)
  let counter = store.counterList.counters[0].id
  func counterAction(_ action: Counter.Action) -> AppFeature.Action {
    .counterList(.counters(.element(id: counter, action: action)))
  }
  await store.send(.task).finish()
  store.send(counterAction(.incrementButtonTapped))
  await store.send(counterAction(.factButtonTapped)).finish()
  await store.send(counterAction(.randomNumberButtonTapped)).finish()
  store.send(.counterList(.addCounterButtonTapped))
  store.send(.settings(.binding(.set(\.displayName, "Ann"))))
  await store.send(.search(.searchQueryChanged("Bro"))).finish()
  store.stopRecording()
  return recording
}

@MainActor
@Suite struct RecordingSessionTests {
  @Test func printsTheTest() async throws {
    let recording = await recordedSession()
    let record = recording.record(
      feature: "AppFeature", initialState: AppFeature.initialStateExpression,
      baseline: AppFeature.baselineState())
    let text = try SessionTestWriter(
      suiteName: "S", testName: "t", testableImports: AppFeature.recordedModules, source: "x"
    ).write(record)
    try text.write(toFile: "/tmp/generated.swift", atomically: true, encoding: .utf8)
  }
}
