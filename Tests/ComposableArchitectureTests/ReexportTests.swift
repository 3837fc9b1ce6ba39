import ComposableArchitecture
import Foundation
import Testing

/// What `import ComposableArchitecture` reaches beside Foundation: code written against the
/// reference library on Apple's systems names `URLSession` and `URLRequest` without importing
/// FoundationNetworking, where Linux keeps them.
struct ReexportTests {
  @Test func urlSessionAndItsRequestsNeedNoOtherImport() throws {
    let request = URLRequest(url: try #require(URL(string: "https://example.com/a")))
    #expect(request.url?.path == "/a")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 5
    let session = URLSession(configuration: configuration)
    #expect(session.configuration.timeoutIntervalForRequest == 5)
    session.invalidateAndCancel()
  }
}
