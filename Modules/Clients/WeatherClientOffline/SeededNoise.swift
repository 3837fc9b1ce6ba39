/// Deterministic pseudo-random numbers from a seed: the same seed gives the same numbers on every
/// platform and in every process (unlike `Hasher`, which is seeded per process).
///
/// Each value is SplitMix64's output function applied to the seed mixed with a stream number,
/// so a forecast can draw independent numbers for a place and a day without keeping state.
struct SeededNoise: Sendable {
  let seed: UInt64

  /// A generator whose seed mixes `values` in order.
  init(_ values: Int...) {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for value in values {
      seed = Self.mix(seed ^ UInt64(bitPattern: Int64(value)))
    }
    self.seed = seed
  }

  /// A number in `0..<1`, the same every time for the same seed and `stream`.
  func unit(_ stream: UInt64) -> Double {
    Double(Self.mix(seed &+ stream &* 0x9E37_79B9_7F4A_7C15) >> 11) / Double(1 << 53)
  }

  /// A number in `-1..<1`.
  func signed(_ stream: UInt64) -> Double {
    unit(stream) * 2 - 1
  }

  /// SplitMix64's finalizer: a bijection of 64-bit values that spreads every input bit.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
