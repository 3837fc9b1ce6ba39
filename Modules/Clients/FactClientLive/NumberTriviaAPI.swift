import Foundation
import LiveHTTP

/// The number-trivia service: `GET <base>/<number>/trivia` answers one fact as plain text.
struct NumberTriviaAPI: Sendable {
  let baseURL: URL
  let requester: HTTPRequester

  init(baseURL: URL, timeout: Duration) {
    self.baseURL = baseURL
    self.requester = HTTPRequester(service: "Number trivia", timeout: timeout)
  }

  /// The longest fact put in the state, in characters; a longer answer is cut at a word boundary
  /// and ends with "…". (A trivia fact is one sentence; the body itself is capped at 1 MiB.)
  static let maximumFactLength = 300

  func fact(about number: Int) async throws -> String {
    Self.bounded(try await self.requester.text(from: self.url(for: number)))
  }

  static func bounded(_ text: String) -> String {
    guard text.count > maximumFactLength else { return text }
    let cut = text.prefix(maximumFactLength - 1)
    let atWord = cut.lastIndex(where: \.isWhitespace).map { cut[..<$0] } ?? cut
    return atWord.trimmingCharacters(in: .whitespacesAndNewlines) + "…"
  }

  func url(for number: Int) throws(HTTPServiceError) -> URL {
    try Endpoint.url(
      base: self.baseURL, path: "/\(number)/trivia", service: self.requester.service)
  }
}
