/// Dismisses the feature that reads it: `@Dependency(\.dismiss) var dismiss`, then
/// `await dismiss()` from an effect.
///
/// A feature presented with `ifLet(\.$destination, action:)` or pushed on a stack with
/// `forEach(\.path, action:)` can dismiss itself: its parent receives `.dismiss` (or
/// `.popFrom(id:)`), the state goes away and every effect of the feature is cancelled — including
/// the one that called `dismiss()`, so send nothing after it.
///
/// ```swift
/// case .closeButtonTapped:
///   return .run { _ in await dismiss() }
/// ```
///
/// A feature that is not presented cannot be dismissed: the call is reported (a runtime warning
/// in an app, a failure in a test). `@Dependency(\.isPresented)` tells which case applies. At the
/// root of a `TestStore` a dismissal marks the store dismissed (``TestStore/isDismissed``).
public struct DismissEffect: Sendable {
  @usableFromInline let dismiss: (@MainActor @Sendable () -> Void)?
  /// Whether `dismiss()` returns only when the calling effect is cancelled, which removing the
  /// presented feature does: the effect stays in flight until the parent has handled the
  /// dismissal, so a test store waiting for effects also waits for the dismissal to arrive.
  let waitsForRemoval: Bool
  /// A presented feature's dismissal: whether it reached the presentation's lifetime effect
  /// (which then sends the parent its dismissal). It may not have yet: that effect registers
  /// what ends it when its task first runs, and a feature can ask to be dismissed before — a
  /// close sent right after the push, on a busy machine or in a replay.
  let reachesPresentation: (@MainActor @Sendable () -> Bool)?

  /// A dismiss effect that runs `dismiss`: what a test passes to observe a dismissal.
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
    self.waitsForRemoval = false
    self.reachesPresentation = nil
  }

  private init(reaching dismiss: @escaping @MainActor @Sendable () -> Bool) {
    self.dismiss = { _ = dismiss() }
    self.waitsForRemoval = true
    self.reachesPresentation = dismiss
  }

  /// The dismiss effect of a presented feature.
  static func presented(_ dismiss: @escaping @MainActor @Sendable () -> Bool) -> Self {
    Self(reaching: dismiss)
  }

  /// The dismiss effect of a feature that is not presented.
  init() {
    self.dismiss = nil
    self.waitsForRemoval = false
    self.reachesPresentation = nil
  }

  /// Dismisses the feature.
  @MainActor
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismiss else {
      reportIssue(
        """
        A reducer requested dismissal at "\(fileID):\(line)", but couldn't be dismissed.

        This is generally considered an application logic error, and can happen when a reducer \
        assumes it runs in a presentation context. If a reducer can run at both the root level \
        of an application, as well as in a presentation destination, use \
        @Dependency(\\.isPresented) to determine if the reducer is being presented before \
        calling @Dependency(\\.dismiss).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    if let reachesPresentation {
      // Asked again until the presentation's lifetime effect is there to end (or the feature
      // is gone, which cancels this effect): never lost to the order in which tasks start.
      var attempts = 0
      while !reachesPresentation(), !Task.isCancelled {
        attempts += 1
        if attempts < 100 {
          await Task.yield()
        } else {
          try? await Task.sleep(for: .milliseconds(Swift.min(attempts - 99, 100)))
        }
      }
    } else {
      dismiss()
    }
    guard waitsForRemoval else { return }
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(3600))
    }
  }

  /// Dismisses the feature; the animation is accepted and ignored (see ``Animation``).
  @MainActor
  public func callAsFunction(
    animation: Animation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses the feature; the transaction is accepted and ignored (see ``Transaction``).
  @MainActor
  public func callAsFunction(
    transaction: Transaction,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect()
  static let testValue = DismissEffect()
}

extension DependencyValues {
  /// Dismisses the feature that reads it; see ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }

  /// Whether the feature that reads it is presented (by `ifLet` over a `@Presents` state or
  /// pushed on a stack), and so can `dismiss()` itself. At the root of a `TestStore`, which a
  /// feature can dismiss, it is `true` as well.
  public var isPresented: Bool {
    dismiss.dismiss != nil
  }

  /// The dependencies of a presented feature: a `dismiss` that ends its presentation (and so
  /// `isPresented`).
  @usableFromInline
  mutating func present() {
    self[DismissKey.self] = DismissEffect.presented({
      Task._cancelReportingAny(id: _PresentationDismissID())
    })
  }
}

/// The identifier of the part of a presentation's lifetime effect that `dismiss()` cancels.
struct _PresentationDismissID: Hashable, Sendable {}

/// The identifier every presentation lifetime is registered under at the root of a store, so a
/// test store can end them all at once.
struct _PresentationLifetimeID: Hashable, Sendable {}

extension Effect {
  /// The effect that lives as long as a feature is presented: it waits until the feature calls
  /// `dismiss()`, then sends `dismissAction` so the parent removes it. Removing the feature
  /// cancels the effect (and nothing is sent).
  ///
  /// It is not one of the effects a send is waiting on, and a test store does not count it as
  /// in flight.
  @usableFromInline
  static func _presentationLifetime(
    sending dismissAction: @escaping @Sendable () -> Action
  ) -> Self {
    Effect.run { send in
      _ = try? await withTaskCancellation(id: _PresentationDismissID()) {
        try await Task.never()
      }
      guard !Task.isCancelled else { return }
      await send(dismissAction())
    }
    .mapRuns { $0.asLifetime() }
  }
}
