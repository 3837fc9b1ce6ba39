/// A case key path resolved once into its embed and extract functions.
///
/// Applying a case key path builds its `Case` every time; reducers that run on every action keep
/// this resolved form instead.
@usableFromInline
struct CaseEmbedding<Root, Value>: Sendable {
  @usableFromInline let resolved: Case<Value>

  @usableFromInline
  init(_ keyPath: CaseKeyPath<Root, Value>) {
    self.resolved = Case(keyPath)
  }

  @inlinable
  func extract(from root: Root) -> Value? {
    resolved._extract(from: root)
  }

  @inlinable
  func embed(_ value: Value) -> Root {
    // A `Case` built from a `CaseKeyPath<Root, Value>` always embeds into `Root`.
    resolved._embed(value) as! Root
  }
}
