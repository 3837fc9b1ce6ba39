import Foundation

/// The error thrown when a random number is asked for in a range whose lower bound is above its
/// upper bound.
public struct RandomNumberRangeError: Error, Hashable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The lower bound asked for.
  public var min: Int
  /// The upper bound asked for.
  public var max: Int

  /// Creates the error for the range `min...max`.
  public init(min: Int, max: Int) {
    self.min = min
    self.max = max
  }

  /// Returns `min...max`, or throws ``RandomNumberRangeError`` when `min > max`.
  ///
  /// Every implementation of ``RandomNumberClient/fetch`` calls this first.
  public static func validatedRange(min: Int, max: Int) throws(RandomNumberRangeError)
    -> ClosedRange<Int>
  {
    guard min <= max else { throw RandomNumberRangeError(min: min, max: max) }
    return min...max
  }

  public var description: String {
    "Random number: invalid range, min (\(self.min)) is greater than max (\(self.max))"
  }

  public var errorDescription: String? { self.description }
}
