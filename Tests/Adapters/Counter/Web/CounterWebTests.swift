import ComposableArchitecture
import CounterFeature
import CounterWeb
import FactClient
import Foundation
import RandomNumberClient
import Testing
import WebAdapterTesting
import WebFrontend

/// The counters' section alone, served over HTTP in process: its routes and view on `CounterList`.
struct CounterWebTests {
  static let dependencies: @Sendable (inout DependencyValues) -> Void = {
    $0.uuid = .incrementing
    $0.factClient.fetch = { @Sendable number in "\(number) is the number of the test." }
    $0.randomNumberClient.fetch = { @Sendable min, _ in min }
  }

  @Test func itKeepsEveryPromiseOfAWebAdapter() async throws {
    let problems = try await AdapterContract.problems(
      of: CounterListPage.preview, dependencies: Self.dependencies)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func aCounterIsAddedCountedAndAskedForAFact() async throws {
    try await AdapterServer.test(CounterListPage.preview, dependencies: Self.dependencies) {
      client in
      let before = try await client.start().state?["counters"]
      guard case .array(let counters) = before else {
        Issue.record("no counters in \(String(describing: before))")
        return
      }
      let added = try await client.send("counter.add")
      #expect(added.status == 200, "\(added)")
      guard case .array(let after) = added.state?["counters"],
        let id = after.last?["id"]?.string
      else {
        Issue.record("no counter added: \(added)")
        return
      }
      #expect(after.count == counters.count + 1)
      for _ in 0..<3 {
        #expect(try await client.send("counter.increment", [("id", .string(id))]).status == 200)
      }
      #expect(try await client.send("counter.decrement", [("id", .string(id))]).status == 200)
      let counted = try await client.state().state?["counters"]
      guard case .array(let shown) = counted else { return }
      #expect(shown.last?["count"]?.int == 2)
      #expect(try await client.send("counter.fact", [("id", .string(id))]).status == 200)
      let fact = try await client.state {
        if case .array(let shown) = $0["counters"] {
          shown.last?["fact"]?.string != nil
        } else {
          false
        }
      }
      guard case .array(let withFact) = fact?["counters"] else { return }
      #expect(withFact.last?["fact"]?.string == "2 is the number of the test.")
    }
  }

  @Test func aCounterThatDoesNotExistIs422AndChangesNothing() async throws {
    try await AdapterServer.test(CounterListPage.preview, dependencies: Self.dependencies) {
      client in
      let start = try await client.start()
      let refused = try await client.send(
        "counter.increment", [("id", .string(UUID().uuidString))])
      #expect(refused.status == 422, "\(refused)")
      #expect(try await client.state().revision == start.revision)
    }
  }

  @Test func confirmingARemovalNobodyAskedForIsAConflict() async throws {
    try await AdapterServer.test(CounterListPage.preview, dependencies: Self.dependencies) {
      client in
      try await client.start()
      let refused = try await client.send("counter.confirmRemove")
      #expect(refused.status == 409, "\(refused)")
      #expect(refused.error?.isEmpty == false)
    }
  }
}
