// Seed: the post "random-number-dependencies" — the post's "전체 코드" (full code),
// lines 167-195 (`RandomCounterClient`, live value, dependency key, `DependencyValues` accessor)
// and lines 196-238 (`RandomCounterFeature`). (The earlier fragments, lines 89-160, name the client
// inconsistently — `randomNumberClient`, `RandomNumberClientKey` — the full code is the final one.)
//
// Edits relative to the seed:
// - SwiftUI removed: `import SwiftUI` (lines 167, 196, 239, 286), `RandomCounterView`
//   (lines 242-283) and the `@main` app (lines 289-300).
// - `\\.randomCounterClient` → `\.randomCounterClient` and `\\(error)` → `\(error)`: the doubled
//   backslashes are a blog artifact.
// - `var fetchRandomNumber: () async throws -> Int` → `@Sendable () async throws -> Int`: Swift 6
//   language mode (this package's mode) requires a `DependencyKey` value to be `Sendable`
//   (swift-dependencies' `TestDependencyKey.Value: Sendable`) and rejects a `static let` of a
//   non-`Sendable` type. Not a runtime matter: real TCA under Swift 6 needs the same edit. Without
//   it: "type 'RandomCounterClient' does not conform to the 'Sendable' protocol" and "static
//   property 'live' is not concurrency-safe because non-'Sendable' type 'RandomCounterClient' may
//   have shared mutable state".
// - Comments dropped (MARK lines kept in their readable part): their Korean text is mojibake in
//   the seed (encoding damage with U+FFFD replacement characters). The `print` message, which is
//   code, is kept byte for byte, mojibake included.
// - Indentation normalized to two spaces.
// - `#if canImport(FoundationNetworking) import FoundationNetworking #endif` added: `URLSession`
//   lives there on Linux. `import Foundation` added (the seed got it through `import SwiftUI`).
// The live client's URL keeps the seed's `<…>` angle brackets (a Notion/markdown artifact); it is
// compiled but never called by the tests.

import ComposableArchitecture
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// MARK: - RandomCounterClient
struct RandomCounterClient {
  var fetchRandomNumber: @Sendable () async throws -> Int
}

extension RandomCounterClient {
  static let live = RandomCounterClient(fetchRandomNumber: {
    let url = URL(
      string: "<http://www.randomnumberapi.com/api/v1.0/random?min=1&max=1000&count=1>")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return try JSONDecoder().decode([Int].self, from: data).first ?? 0
  })
}

private enum RandomCounterClientKey: DependencyKey {
  static let liveValue = RandomCounterClient.live
}

extension DependencyValues {
  var randomCounterClient: RandomCounterClient {
    get { self[RandomCounterClientKey.self] }
    set { self[RandomCounterClientKey.self] = newValue }
  }
}

// MARK: - Feature
struct RandomCounterFeature: Reducer {
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable {
    case increment
    case decrement
    case fetchRandomNumber
    case randomNumberResponse(Int)
  }

  @Dependency(\.randomCounterClient) var client

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .decrement:
        state.count -= 1
        return .none
      case .fetchRandomNumber:
        return .run { send in
          do {
            let number = try await client.fetchRandomNumber()
            await send(.randomNumberResponse(number))
          } catch {
            print("�žœ� �„˜�„ 가져�˜�기 �‹��Œ�: \(error)")
          }
        }
      case .randomNumberResponse(let number):
        state.count = number
        return .none
      }
    }
  }
}
