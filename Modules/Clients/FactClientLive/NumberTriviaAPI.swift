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

  func fact(about number: Int) async throws -> String {
    try await self.requester.text(from: self.url(for: number))
  }

  func url(for number: Int) throws(HTTPServiceError) -> URL {
    try Endpoint.url(
      base: self.baseURL, path: "/\(number)/trivia", service: self.requester.service)
  }
}
