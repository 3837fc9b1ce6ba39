/// An animation, as code written for TCA passes one to `send(_:animation:)`.
///
/// There is no SwiftUI on Linux and nothing to animate: the runtime accepts animations so that
/// such code compiles unchanged, and ignores them. An action sent with an animation is processed
/// exactly as one sent without.
public struct Animation: Hashable, Sendable {
  /// What the animation was asked to be, for descriptions and equality.
  let name: String

  init(_ name: String) {
    self.name = name
  }

  public static let `default` = Animation("default")
  public static let linear = Animation("linear")
  public static let easeIn = Animation("easeIn")
  public static let easeOut = Animation("easeOut")
  public static let easeInOut = Animation("easeInOut")
  public static let spring = Animation("spring")
  public static let interactiveSpring = Animation("interactiveSpring")
  public static let bouncy = Animation("bouncy")
  public static let smooth = Animation("smooth")
  public static let snappy = Animation("snappy")

  public static func linear(duration: Double) -> Self { Self("linear(\(duration))") }
  public static func easeIn(duration: Double) -> Self { Self("easeIn(\(duration))") }
  public static func easeOut(duration: Double) -> Self { Self("easeOut(\(duration))") }
  public static func easeInOut(duration: Double) -> Self { Self("easeInOut(\(duration))") }
  public static func spring(
    response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
  ) -> Self {
    Self("spring(\(response), \(dampingFraction), \(blendDuration))")
  }
  public static func spring(duration: Double = 0.5, bounce: Double = 0) -> Self {
    Self("spring(duration: \(duration), bounce: \(bounce))")
  }

  public static func interactiveSpring(
    response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
  ) -> Self {
    Self("interactiveSpring(\(response), \(dampingFraction), \(blendDuration))")
  }
  public static func interpolatingSpring(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) -> Self {
    Self("interpolatingSpring(\(mass), \(stiffness), \(damping), \(initialVelocity))")
  }
  public static func interpolatingSpring(
    duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0
  ) -> Self {
    Self("interpolatingSpring(duration: \(duration), bounce: \(bounce), \(initialVelocity))")
  }
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    Self("bouncy(\(duration), \(extraBounce))")
  }
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    Self("smooth(\(duration), \(extraBounce))")
  }
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
    Self("snappy(\(duration), \(extraBounce))")
  }
  public static func timingCurve(
    _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
  ) -> Self {
    Self("timingCurve(\(c0x), \(c0y), \(c1x), \(c1y), \(duration))")
  }

  public func delay(_ delay: Double) -> Self { Self("\(name).delay(\(delay))") }
  public func speed(_ speed: Double) -> Self { Self("\(name).speed(\(speed))") }
  public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Self {
    Self("\(name).repeatCount(\(count), \(autoreverses))")
  }
  public func repeatForever(autoreverses: Bool = true) -> Self {
    Self("\(name).repeatForever(\(autoreverses))")
  }
}

/// The context of a state change, as code written for TCA passes one to
/// `send(_:transaction:)`. Accepted and ignored, like ``Animation``.
public struct Transaction: Sendable {
  /// The animation of the change.
  public var animation: Animation?
  /// Whether animations are disabled.
  public var disablesAnimations = false

  public init() {}

  public init(animation: Animation?) {
    self.animation = animation
  }
}

/// Runs `body`; the animation is accepted for source compatibility and ignored.
@discardableResult
public func withAnimation<Result>(
  _ animation: Animation? = .default, _ body: () throws -> Result
) rethrows -> Result {
  try body()
}

/// Runs `body`; the transaction is accepted for source compatibility and ignored.
@discardableResult
public func withTransaction<Result>(
  _ transaction: Transaction, _ body: () throws -> Result
) rethrows -> Result {
  try body()
}
