/// Why an action a visitor sent is refused before the store sees it: it is malformed, it names
/// something the state does not have, or it does not fit the state as it is now.
///
/// A feature's web adapter throws it from its routes (``WebRoute``); the HTTP routes answer it
/// with 400, 422 or 409. Nothing is sent to the store, so a refused action changes nothing.
public struct ActionRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Equatable, Sendable {
    /// The action's JSON does not have the fields its type needs (HTTP 400).
    case malformed
    /// The action names something the state does not have, such as an unknown id (HTTP 422).
    case invalid
    /// The action does not fit the state now, such as dismissing an alert that is not shown
    /// (HTTP 409).
    case conflict
  }

  public var kind: Kind
  /// What was wrong, for the person sending the action.
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The action's JSON does not have the fields its type needs.
  public static func malformed(_ message: String) -> Self { Self(.malformed, message) }
  /// The action names something the state does not have.
  public static func invalid(_ message: String) -> Self { Self(.invalid, message) }
  /// The action does not fit the state now.
  public static func conflict(_ message: String) -> Self { Self(.conflict, message) }

  public var description: String { message }
}
