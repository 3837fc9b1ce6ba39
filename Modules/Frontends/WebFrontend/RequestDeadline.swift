import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request: the head must arrive within
/// `headTimeout` of the connection opening or of the previous response ending, and the body
/// within `bodyTimeout` of the head.
///
/// Hummingbird's idle timeout only notices a connection that sends nothing at all; a client that
/// dribbles one header byte a second is never idle and would hold its connection forever. This
/// handler bounds the time a request may take to arrive, whatever its pace. Time spent answering
/// (an event stream, a slow upstream) is not bounded here.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let headTimeout: TimeAmount
  private let bodyTimeout: TimeAmount
  private var deadline: Scheduled<Void>?
  /// Requests whose head has arrived and whose response has not ended.
  private var inFlight = 0

  init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
    self.headTimeout = headTimeout
    self.bodyTimeout = bodyTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { arm(headTimeout, context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    arm(headTimeout, context: context)
    context.fireChannelActive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    disarm()
  }

  func channelInactive(context: ChannelHandlerContext) {
    disarm()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      inFlight += 1
      arm(bodyTimeout, context: context)
    case .body: break
    case .end: disarm()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) {
      inFlight = max(0, inFlight - 1)
      if inFlight == 0 { arm(headTimeout, context: context) }
    }
    context.write(data, promise: promise)
  }

  private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
    disarm()
    let channel = context.channel
    deadline = context.eventLoop.scheduleTask(in: timeout) {
      channel.close(promise: nil)
    }
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
  }
}
