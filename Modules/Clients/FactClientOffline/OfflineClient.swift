import FactClient
import Synchronization

extension FactClient {
  /// A client that needs no network: true statements computed from the number.
  ///
  /// Each call answers one of ``offlineFacts(about:)``. The client counts its calls and picks
  /// the fact at (call count + an offset derived from the number) among the number's facts, so
  /// asking about the same number again gives another fact, and a new client answers the same
  /// sequence of calls with the same sequence of facts (what tests rely on).
  ///
  /// ```swift
  /// let client = FactClient.offline()
  /// try await client.fetch(17)  // e.g. "17 is a prime number."
  /// try await client.fetch(17)  // e.g. "17 is XVII in Roman numerals."
  /// ```
  public static func offline() -> Self {
    let calls = CallCounter()
    return Self(fetch: { number in
      let facts = NumberFacts.all(about: number)
      let offset = Int(truncatingIfNeeded: SpreadOffset.of(number) % UInt64(facts.count))
      return facts[(calls.next() % facts.count + offset) % facts.count]
    })
  }

  /// Every fact that ``offline()`` may answer about `number`; never empty.
  ///
  /// ```swift
  /// FactClient.offlineFacts(about: 42)
  /// // ["42 is an even number.", "42 is the product of the primes 2, 3 and 7.", …]
  /// ```
  public static func offlineFacts(about number: Int) -> [String] {
    NumberFacts.all(about: number)
  }
}

/// The number of calls a client has answered, shared by every copy of the client.
private final class CallCounter: Sendable {
  private let count = Atomic<Int>(0)

  /// The number of calls before this one (0, 1, 2, …), never negative.
  func next() -> Int {
    count.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
  }
}

/// Where a number's rotation through its facts starts, so that different numbers do not all
/// start with the same kind of fact.
private enum SpreadOffset {
  static func of(_ number: Int) -> UInt64 {
    (UInt64(bitPattern: Int64(number)) &* 0x9E37_79B9_7F4A_7C15) >> 32
  }
}
