import Observation

/// Tracks the observable fields `apply` reads and calls `onChange` once, before the first of them
/// next changes.
///
/// TCA spells observation tracking through its Perception library, which back-deploys the
/// Observation module to older Apple systems. The toolchain here has the Observation module
/// itself, so this is `withObservationTracking` under the name TCA code uses:
///
/// ```swift
/// withPerceptionTracking {
///   _ = store.count
/// } onChange: {
///   // called once, when `count` next changes
/// }
/// ```
@inlinable
public func withPerceptionTracking<T>(
  _ apply: () -> T,
  onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  withObservationTracking(apply, onChange: onChange())
}
