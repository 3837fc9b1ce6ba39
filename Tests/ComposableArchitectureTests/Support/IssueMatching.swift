import Testing

/// The text an issue was reported with.
func message(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}
