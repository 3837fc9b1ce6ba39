import Foundation
import Metrics
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The answer of an HTTP service whose status was 2xx.
public struct HTTPResponse: Sendable {
  /// The status code, 200–299.
  public var status: Int
  /// The body, as received.
  public var body: Data

  /// Creates a response.
  public init(status: Int, body: Data) {
    self.status = status
    self.body = body
  }
}

/// Sends GET requests to one outside service and turns every failure into an
/// ``HTTPServiceError`` that names the service.
///
/// - Every request is bounded by ``timeout``, enforced by racing the request against a timer.
///   URLSession's own timeout is only a backstop: on Linux it counts whole seconds (0.3 s becomes
///   0, which times out at once) and bounds the time between two packets, not the whole request.
/// - Cancelling the calling task cancels the request, which then throws `CancellationError`.
/// - A body longer than ``maximumBodySize`` is not read to the end: the request is cancelled as
///   soon as the announced length or the bytes received pass the limit, and throws
///   ``HTTPServiceError/Cause/bodyTooLarge(limit:)``. An upstream cannot fill memory.
/// - A status outside 200–299 throws ``HTTPServiceError/Cause/httpStatus(_:)``, or
///   ``HTTPServiceError/Cause/rejected(status:reason:)`` when `rejectionReason` finds a reason in
///   the body.
///
/// ```swift
/// let requester = HTTPRequester(service: "Number trivia", timeout: .seconds(10))
/// let text = try await requester.text(from: url)
/// ```
public struct HTTPRequester: Sendable {
  /// The service's name, used in error messages.
  public let service: String
  /// The longest a request may take, from sending it to the end of the body.
  public let timeout: Duration
  /// The longest response body accepted, in bytes.
  public let maximumBodySize: Int
  private let session: Session

  /// The default ``maximumBodySize``: 1 MiB, far above any answer the app's services give.
  public static let defaultMaximumBodySize = 1 << 20

  /// Creates a requester with its own ephemeral URLSession (no cache, no cookies).
  public init(
    service: String, timeout: Duration, maximumBodySize: Int = defaultMaximumBodySize
  ) {
    self.service = service
    self.timeout = timeout
    self.maximumBodySize = max(1, maximumBodySize)
    self.session = Session(timeout: timeout, maximumBodySize: self.maximumBodySize)
  }

  /// Fetches `url` and returns the response if its status is 2xx.
  ///
  /// - Parameters:
  ///   - accept: the `Accept` header, e.g. `application/json`.
  ///   - rejectionReason: reads the service's explanation from an error body, if it has one.
  ///
  /// Each exchange is counted in `upstream_requests_total` (swift-metrics), labelled with the
  /// service and its outcome (`ok`, `timed_out`, `unreachable`, `http_status`, …); nothing is
  /// recorded until the executable bootstraps a metrics backend.
  public func get(
    _ url: URL,
    accept: String? = nil,
    rejectionReason: @Sendable (Data) -> String? = { _ in nil }
  ) async throws -> HTTPResponse {
    do {
      let response = try await exchange(url, accept: accept, rejectionReason: rejectionReason)
      record(outcome: "ok")
      return response
    } catch {
      record(outcome: Self.outcome(of: error))
      throw error
    }
  }

  private func record(outcome: String) {
    Counter(
      label: "upstream_requests_total", dimensions: [("client", service), ("outcome", outcome)]
    )
    .increment()
  }

  /// The label of a failed exchange.
  static func outcome(of error: any Error) -> String {
    guard let error = error as? HTTPServiceError else {
      return error is CancellationError ? "cancelled" : "other"
    }
    switch error.cause {
    case .invalidURL: return "invalid_url"
    case .unreachable: return "unreachable"
    case .timedOut: return "timed_out"
    case .httpStatus: return "http_status"
    case .rejected: return "rejected"
    case .undecodableBody: return "undecodable"
    case .bodyTooLarge: return "too_large"
    case .transport: return "transport"
    }
  }

  private func exchange(
    _ url: URL,
    accept: String?,
    rejectionReason: @Sendable (Data) -> String?
  ) async throws -> HTTPResponse {
    try Task.checkCancellation()
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: self.timeout.urlSessionBackstop)
    request.httpMethod = "GET"
    if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }

    let (data, response): (Data, URLResponse)
    do {
      (data, response) = try await self.withTimeout { [session, request] in
        try await session.data(for: request)
      }
    } catch {
      throw self.mapFailure(error, url: url)
    }

    guard let http = response as? HTTPURLResponse else {
      throw HTTPServiceError(service: self.service, cause: .transport("not an HTTP response"))
    }
    guard (200..<300).contains(http.statusCode) else {
      if let reason = rejectionReason(data) {
        throw HTTPServiceError(
          service: self.service, cause: .rejected(status: http.statusCode, reason: reason))
      }
      throw HTTPServiceError(service: self.service, cause: .httpStatus(http.statusCode))
    }
    return HTTPResponse(status: http.statusCode, body: data)
  }

  /// Fetches `url` and decodes its JSON body as `T`.
  ///
  /// A body that does not decode throws ``HTTPServiceError/Cause/undecodableBody(path:detail:)``.
  public func decode<T: Decodable>(
    _ type: T.Type,
    from url: URL,
    decoder: JSONDecoder = JSONDecoder(),
    rejectionReason: @Sendable (Data) -> String? = { _ in nil }
  ) async throws -> T {
    let response = try await self.get(
      url, accept: "application/json", rejectionReason: rejectionReason)
    do {
      return try decoder.decode(T.self, from: response.body)
    } catch let error as DecodingError {
      throw HTTPServiceError(service: self.service, cause: .undecodableBody(error))
    } catch {
      throw HTTPServiceError(
        service: self.service, cause: .undecodableBody(path: "", detail: "\(error)"))
    }
  }

  /// Fetches `url` and returns its body as UTF-8 text, without surrounding white space.
  ///
  /// A body that is empty or not UTF-8 throws
  /// ``HTTPServiceError/Cause/undecodableBody(path:detail:)``.
  public func text(from url: URL) async throws -> String {
    let response = try await self.get(url, accept: "text/plain")
    guard let text = String(validating: response.body, as: UTF8.self) else {
      throw HTTPServiceError(
        service: self.service, cause: .undecodableBody(path: "", detail: "body is not UTF-8 text"))
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw HTTPServiceError(
        service: self.service, cause: .undecodableBody(path: "", detail: "body is empty"))
    }
    return trimmed
  }

  /// Runs `operation`, throwing ``HTTPServiceError/Cause/timedOut(after:)`` if it has not
  /// finished within ``timeout``. The loser of the race is cancelled.
  private func withTimeout<R: Sendable>(
    _ operation: @escaping @Sendable () async throws -> R
  ) async throws -> R {
    let timeout = self.timeout
    let service = self.service
    return try await withThrowingTaskGroup(of: R.self) { group in
      defer { group.cancelAll() }
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: timeout)
        throw HTTPServiceError(service: service, cause: .timedOut(after: timeout))
      }
      guard let result = try await group.next() else { throw CancellationError() }
      return result
    }
  }

  private func mapFailure(_ error: any Error, url: URL) -> any Error {
    if Task.isCancelled { return CancellationError() }
    if let error = error as? HTTPServiceError { return error }
    if error is BodyTooLarge {
      return HTTPServiceError(service: self.service, cause: .bodyTooLarge(limit: maximumBodySize))
    }
    if error is CancellationError { return error }
    guard let error = error as? URLError else {
      return HTTPServiceError(service: self.service, cause: .transport("\(error)"))
    }
    let host = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? "\(url)"
    switch error.code {
    case .timedOut:
      return HTTPServiceError(service: self.service, cause: .timedOut(after: self.timeout))
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
      .networkConnectionLost, .secureConnectionFailed, .cannotLoadFromNetwork:
      return HTTPServiceError(
        service: self.service,
        cause: .unreachable(host: host, detail: error.localizedDescription))
    case .cancelled:
      return CancellationError()
    default:
      return HTTPServiceError(service: self.service, cause: .transport(error.localizedDescription))
    }
  }
}

/// Thrown inside ``Session`` when a body passes its limit; mapped to
/// ``HTTPServiceError/Cause/bodyTooLarge(limit:)`` with the service's name.
private struct BodyTooLarge: Error {}

/// An ephemeral URLSession whose data tasks follow Swift task cancellation and stop reading a
/// body that passes the limit.
private final class Session: Sendable {
  private let session: URLSession
  private let receiver: Receiver

  init(timeout: Duration, maximumBodySize: Int) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout.urlSessionBackstop
    configuration.timeoutIntervalForResource = timeout.urlSessionBackstop
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    // The session keeps its delegate until it is invalidated, so the delegate must not keep
    // the session (or this object) alive: it is a separate object.
    self.receiver = Receiver(maximumBodySize: maximumBodySize)
    self.session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
  }

  deinit {
    self.session.invalidateAndCancel()
  }

  /// Like `URLSession.data(for:)`, but cancels the data task as soon as the calling task is
  /// cancelled (the task is created here so that its cancellation is under our control on every
  /// platform), and as soon as the body passes the limit.
  func data(for request: URLRequest) async throws -> (Data, URLResponse) {
    let state = TaskState()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = self.session.dataTask(with: request)
        self.receiver.expect(task, continuation)
        state.start(task)
      }
    } onCancel: {
      state.cancel()
    }
  }
}

/// Collects each data task's body, up to the limit, and answers its continuation once.
private final class Receiver: NSObject, URLSessionDataDelegate, Sendable {
  private struct Pending {
    var continuation: CheckedContinuation<(Data, URLResponse), any Error>
    var response: URLResponse?
    var body = Data()
  }

  private let maximumBodySize: Int
  private let pending = Mutex<[Int: Pending]>([:])

  init(maximumBodySize: Int) {
    self.maximumBodySize = maximumBodySize
  }

  func expect(
    _ task: URLSessionDataTask,
    _ continuation: CheckedContinuation<(Data, URLResponse), any Error>
  ) {
    pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    if response.expectedContentLength > Int64(maximumBodySize) {
      finish(dataTask.taskIdentifier, with: .failure(BodyTooLarge()))
      completionHandler(.cancel)
      return
    }
    pending.withLock { $0[dataTask.taskIdentifier]?.response = response }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let isTooLarge = pending.withLock { pending -> Bool in
      guard var entry = pending[dataTask.taskIdentifier] else { return false }
      guard entry.body.count + data.count <= maximumBodySize else { return true }
      entry.body.append(data)
      pending[dataTask.taskIdentifier] = entry
      return false
    }
    if isTooLarge {
      finish(dataTask.taskIdentifier, with: .failure(BodyTooLarge()))
      dataTask.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let entry = pending.withLock { $0[task.taskIdentifier] }
    if let error {
      finish(task.taskIdentifier, with: .failure(error))
    } else if let response = entry?.response ?? task.response {
      finish(task.taskIdentifier, with: .success((entry?.body ?? Data(), response)))
    } else {
      finish(task.taskIdentifier, with: .failure(URLError(.badServerResponse)))
    }
  }

  /// Answers the task's continuation, if it has not been answered yet.
  private func finish(_ identifier: Int, with result: Result<(Data, URLResponse), any Error>) {
    let entry = pending.withLock { $0.removeValue(forKey: identifier) }
    entry?.continuation.resume(with: result)
  }
}

/// The data task of one request, and whether it was cancelled before it started.
private final class TaskState: Sendable {
  private let state = Mutex<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

  /// Resumes `task`, or cancels it at once if cancellation came first.
  func start(_ task: URLSessionDataTask) {
    let isCancelled = self.state.withLock { state in
      state.task = task
      return state.isCancelled
    }
    task.resume()
    if isCancelled { task.cancel() }
  }

  /// Called from the Swift task's cancellation handler, which runs while the runtime holds that
  /// task's status lock. `URLSessionTask.cancel()` on Linux waits (`sync`) for the session's
  /// work queue, and that queue may at the same moment be finishing this very request, resuming
  /// the continuation, which needs the same lock: both would wait forever. So the cancel is only
  /// dispatched from here; the request ends a moment later, through the delegate, either way.
  func cancel() {
    let task = self.state.withLock { state in
      state.isCancelled = true
      return state.task
    }
    guard let task else { return }
    DispatchQueue.global().async { task.cancel() }
  }
}

extension Duration {
  /// The duration in seconds, as `TimeInterval`.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = self.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }

  /// URLSession's timeout for a request bounded by this duration: whole seconds, one more than
  /// the duration rounded up, so that our own timer always fires first with the exact value.
  /// (swift-corelibs-foundation truncates a timeout to whole seconds; 0 fires at once.)
  var urlSessionBackstop: TimeInterval {
    self.timeInterval.rounded(.up) + 1
  }
}
