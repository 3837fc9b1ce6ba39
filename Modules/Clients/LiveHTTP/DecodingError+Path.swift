import Foundation

extension HTTPServiceError.Cause {
  /// The ``undecodableBody(path:detail:)`` cause of a `DecodingError`, with the path of the
  /// offending value, e.g. `daily.time[2]`.
  public static func undecodableBody(_ error: DecodingError) -> Self {
    switch error {
    case .typeMismatch(let type, let context):
      .undecodableBody(
        path: context.codingPath.pathDescription,
        detail: "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      .undecodableBody(
        path: context.codingPath.pathDescription,
        detail: "expected \(type), found null")
    case .keyNotFound(let key, let context):
      .undecodableBody(
        path: (context.codingPath + [key]).pathDescription,
        detail: "missing key \"\(key.stringValue)\"")
    case .dataCorrupted(let context):
      .undecodableBody(
        path: context.codingPath.pathDescription, detail: context.debugDescription)
    @unknown default:
      .undecodableBody(path: "", detail: "\(error)")
    }
  }
}

extension [any CodingKey] {
  /// `daily.time[2]`: keys joined by dots, array indices in brackets.
  var pathDescription: String {
    var path = ""
    for key in self {
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        path += "[\(index)]"
      } else {
        if !path.isEmpty { path += "." }
        path += key.stringValue
      }
    }
    return path
  }
}
