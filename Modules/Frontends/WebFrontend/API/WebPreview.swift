import ComposableArchitecture

/// A feature's section of the page alone, as a web preview serves it: the feature's own reducer
/// from an initial state, with its adapter's routes, view and section and nothing else. Nothing
/// of it is saved. A server runs it as a `WebApp` (`WebApp(preview)`, in WebSessions).
public struct WebPreview<Feature: WebFeature>: Sendable
where Feature.Root: Sendable, Feature.Root.State: Sendable, Feature.Root.Action: Sendable {
  public let root: Feature.Root
  public let initialState: @Sendable () -> Feature.Root.State
  /// What is sent when a session starts (a feature that loads its data on appearing).
  public let start: Feature.Root.Action?

  /// "<section title> — preview".
  public var title: String {
    "\(Feature.section?.title ?? String(describing: Feature.self)) — preview"
  }
}

extension WebFeature where Root: Sendable, Root.State: Sendable, Root.Action: Sendable {
  /// This feature's section alone: `root` (the feature's own reducer) from `initialState`.
  public static func alone(
    _ root: Root, initialState: @escaping @Sendable () -> Root.State, start: Root.Action? = nil
  ) -> WebPreview<Self> {
    WebPreview(root: root, initialState: initialState, start: start)
  }
}
