import Foundation
import LiveHTTP
import RandomNumberClient

/// The random-number HTTP service: `GET <base>/api/v1.0/random?min=1&max=1000&count=1` answers
/// a JSON array with one integer, e.g. `[421]`.
struct RandomNumberAPI: Sendable {
  let baseURL: URL
  let requester: HTTPRequester

  init(baseURL: URL, timeout: Duration) {
    self.baseURL = baseURL
    self.requester = HTTPRequester(service: "Random number API", timeout: timeout)
  }

  func fetch(in range: ClosedRange<Int>) async throws -> Int {
    let url = try self.url(for: range)
    let numbers = try await self.requester.decode([Int].self, from: url)
    guard let number = numbers.first else {
      throw HTTPServiceError(
        service: self.requester.service,
        cause: .undecodableBody(path: "", detail: "expected one number, got an empty array"))
    }
    guard range.contains(number) else {
      throw HTTPServiceError(
        service: self.requester.service,
        cause: .undecodableBody(
          path: "[0]",
          detail: "\(number) is outside \(range.lowerBound)...\(range.upperBound)"))
    }
    return number
  }

  func url(for range: ClosedRange<Int>) throws(HTTPServiceError) -> URL {
    try Endpoint.url(
      base: self.baseURL, path: "/api/v1.0/random",
      query: [
        ("min", "\(range.lowerBound)"), ("max", "\(range.upperBound)"), ("count", "1"),
      ],
      service: self.requester.service)
  }
}
