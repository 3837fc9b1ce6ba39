import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Synchronization

/// What the HTTP/1 request line says that the server's request type no longer does, read where
/// it still can be: between NIO's HTTP/1 decoder and the conversion to `HTTPRequest`.
///
/// - **An absolute-form target** (`GET http://host:port/path HTTP/1.1`): RFC 9112 §3.2.2 says
///   its authority is the request's, whatever `Host` says. The conversion keeps only the path
///   and takes the authority from `Host`, so a request naming another host would pass the Host
///   check. The handler rewrites the target to its origin form and hands the original target on
///   in ``HTTPField/Name/absoluteTarget``, which ``RequestGuard`` checks instead of `Host`. A
///   client's own header of that name is always removed first.
/// - **A method token the decoder does not know** (`FOO /`, `get /`): the decoder fails before
///   any route sees the request, and the server would answer a bare 400. The handler answers
///   405 with a JSON body like every other refusal, and closes the connection (the rest of its
///   bytes cannot be read as HTTP).
package final class RequestLineHandler: ChannelDuplexHandler, RemovableChannelHandler {
  package typealias InboundIn = HTTPServerRequestPart
  package typealias InboundOut = HTTPServerRequestPart
  package typealias OutboundIn = HTTPServerResponsePart
  package typealias OutboundOut = HTTPServerResponsePart

  /// Whether a request has come in whose response has not ended: an answer of this handler
  /// must not cut into it.
  private var isAnswering = false
  /// The methods the server's routes accept, as a 405's `Allow` header lists them.
  private let allowedMethods: String

  package init(allowedMethods: String) {
    self.allowedMethods = allowedMethods
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    isAnswering = true
    head.headers.remove(name: HTTPField.Name.absoluteTarget.rawName)
    if let originForm = Self.originForm(of: head.uri) {
      head.headers.add(name: HTTPField.Name.absoluteTarget.rawName, value: head.uri)
      head.uri = originForm
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?)
  {
    if case .end = unwrapOutboundIn(data) { isAnswering = false }
    context.write(data, promise: promise)
  }

  package func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError, error == .invalidMethod, !isAnswering else {
      context.fireErrorCaught(error)
      return
    }
    isAnswering = true
    let allowed = allowedMethods
    let body = APIError.Body(
      error: "unknown request method; this server accepts \(allowed) (methods are upper case)",
      status: 405)
    let bytes = (try? JSONEncoder().encode(body)) ?? Data()
    var headers = HTTPHeaders([
      ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
      ("Allow", allowed), ("Content-Length", "\(bytes.count)"), ("Connection", "close"),
    ])
    for (name, value) in RequestGuard.headers { headers.add(name: name.rawName, value: value) }
    let head = HTTPResponseHead(version: .http1_1, status: .methodNotAllowed, headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      context.close(promise: nil)
    }
  }

  /// The origin form (`/path?query`) of an absolute-form target, or `nil` when the target is
  /// not in absolute form (it starts with `/`, or is `*`).
  package static func originForm(of target: String) -> String? {
    guard !target.hasPrefix("/"), target != "*", let schemeEnd = target.range(of: "://") else {
      return nil
    }
    let rest = target[schemeEnd.upperBound...]
    guard let pathStart = rest.firstIndex(where: { "/?#".contains($0) }) else { return "/" }
    let path = rest[pathStart...]
    return path.hasPrefix("/") ? String(path) : "/" + path
  }

  /// The authority of an absolute-form target, if its scheme is `http` or `https` and it names
  /// a host without user information; the reason otherwise.
  package static func authority(ofAbsoluteTarget target: String) -> Result<String, APIError> {
    guard let schemeEnd = target.range(of: "://") else {
      return .failure(APIError(.badRequest, "the request target is not a URL"))
    }
    let scheme = target[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else {
      return .failure(
        APIError(.badRequest, "the request target's scheme must be http or https"))
    }
    let rest = target[schemeEnd.upperBound...]
    let authority = rest.prefix { !"/?#".contains($0) }
    guard !authority.contains("@") else {
      return .failure(
        APIError(.badRequest, "the request target may not carry user information"))
    }
    return .success(String(authority))
  }
}

/// Hummingbird's HTTP/1 channel with ``RequestLineHandler`` placed before the conversion of
/// NIO's request head to `HTTPRequest`, where the request line is still whole, and with every
/// accepted connection closed properly even when the server stops before serving it
/// (``AcceptedConnection``).
package struct RequestLineHTTP1Channel: ServerChildChannel {
  package let http1: HTTP1Channel
  package let allowedMethods: String

  package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<AcceptedConnection> {
    http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let connection = AcceptedConnection(value)
      let pipeline = channel.pipeline.syncOperations
      let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
      try pipeline.addHandler(
        RequestLineHandler(allowedMethods: allowedMethods), position: .before(conversion))
      return connection
    }
  }

  package func handle(value: AcceptedConnection, logger: Logger) async {
    await http1.handle(value: value.served(), logger: logger)
  }
}

/// An accepted connection on its way from the listening socket to the server's loop.
///
/// NIO hands each accepted connection to the server as a `NIOAsyncChannel` through an async
/// stream; one accepted just as the server stops is dropped from that stream unserved, and a
/// `NIOAsyncChannel` released without `executeThenClose` traps ("Deinited NIOAsyncWriter without
/// calling finish()") — the whole process stops with SIGILL. (A run of the test suite did, when
/// a test's server stopped as a client connected.) This box closes the connection properly when
/// it is released without having been served.
package final class AcceptedConnection: ServerChildChannelValue {
  private let connection: HTTP1Channel.Value
  private let isServed = Atomic(false)

  package init(_ connection: HTTP1Channel.Value) {
    self.connection = connection
  }

  package var channel: any Channel { connection.channel }

  /// The connection, for the server to serve (which closes it when done).
  package func served() -> HTTP1Channel.Value {
    isServed.store(true, ordering: .relaxed)
    return connection
  }

  deinit {
    guard !isServed.load(ordering: .relaxed) else { return }
    let connection = self.connection
    Task { try? await connection.executeThenClose { _, _ in } }
  }
}

extension HTTPServerBuilder {
  /// ``HTTPServerBuilder/http1(configuration:)`` with ``RequestLineHandler``, which answers an
  /// unknown method with a 405 that lists `allowedMethods` (`"GET, HEAD, POST"`).
  package static func http1CheckingRequestLine(
    configuration: HTTP1Channel.Configuration, allowedMethods: String
  ) -> Self {
    HTTPServerBuilder { responder in
      RequestLineHTTP1Channel(
        http1: HTTP1Channel(responder: responder, configuration: configuration),
        allowedMethods: allowedMethods)
    }
  }
}

extension HTTPField.Name {
  /// The original request target when it was in absolute form; set only by
  /// ``RequestLineHandler``, which removes any the client sent.
  package static let absoluteTarget = Self("X-App-Absolute-Target")!
}
