import WebHTTP

extension APIError {
  /// The answer to a refused action: 400 when it is malformed, 422 when it names something the
  /// state does not have, 409 when it does not fit the state now.
  package init(_ refusal: ActionRefusal) {
    switch refusal.kind {
    case .malformed: self.init(.badRequest, refusal.message)
    case .invalid: self.init(.unprocessableContent, refusal.message)
    case .conflict: self.init(.conflict, refusal.message)
    }
  }
}
