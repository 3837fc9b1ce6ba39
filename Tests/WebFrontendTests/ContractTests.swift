import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend

/// The page and the server agree on the names of actions: every action type the page's modules
/// can send is one the server's catalogue (`GET /api/actions`) accepts.
@MainActor
struct ContractTests {
  /// The action types a script sends: `type: "…"` literals and `data-do="…"` buttons (whose
  /// value the script sends as the type).
  nonisolated static func actionTypes(in script: String) -> Set<String> {
    let pattern = #/(?:type:\s*"|data-do=")([A-Za-z]+\.[A-Za-z]+)"/#
    return Set(script.matches(of: pattern).map { String($0.output.1) })
  }

  @Test func theExtractorFindsWhatItShould() {
    let sample = #"send({ type: "counter.explode" }); '<button data-do="x.y">'"#
    #expect(Self.actionTypes(in: sample) == ["counter.explode", "x.y"])
  }

  @Test func everyActionThePageSendsIsInTheServersCatalogue() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      // Every module of the page.
      var script = ""
      for path in WebAssets.all.keys where path.hasSuffix(".js") {
        script += String(buffer: try await client.call(.get, path).body)
      }
      let catalogue = try decodeBody(
        try await client.call(.get, "/api/actions"), as: [UserAction.Description].self)
      let accepted = Set(catalogue.map(\.type))
      let used = Self.actionTypes(in: script)
      #expect(used.count >= 20, "the script's actions were not found: \(used.sorted())")
      #expect(
        used.subtracting(accepted).isEmpty,
        "unknown to the server: \(used.subtracting(accepted).sorted())")
      // And the page offers every action the server accepts.
      #expect(
        accepted.subtracting(used).isEmpty,
        "no control on the page: \(accepted.subtracting(used).sorted())")
    }
  }
}
