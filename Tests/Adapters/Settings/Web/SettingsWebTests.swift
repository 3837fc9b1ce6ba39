import ComposableArchitecture
import SettingsClient
import SettingsFeature
import SettingsWeb
import Testing
import WebAdapterTesting
import WebFrontend

/// The settings section alone, served over HTTP in process: its routes and view on `Settings`.
struct SettingsWebTests {
  static let dependencies: @Sendable (inout DependencyValues) -> Void = {
    $0.settingsClient = .inMemory()
  }

  @Test func itKeepsEveryPromiseOfAWebAdapter() async throws {
    let problems = try await AdapterContract.problems(
      of: SettingsPage.preview, dependencies: Self.dependencies)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func aResetIsConfirmedOnlyWhenItWasAsked() async throws {
    try await AdapterServer.test(SettingsPage.preview, dependencies: Self.dependencies) { client in
      try await client.start()
      let unasked = try await client.send("settings.confirmReset")
      #expect(unasked.status == 409, "\(unasked)")
      #expect(try await client.send("settings.reset").status == 200)
      let confirmed = try await client.send("settings.confirmReset")
      #expect(confirmed.status == 200, "\(confirmed)")
    }
  }
}
