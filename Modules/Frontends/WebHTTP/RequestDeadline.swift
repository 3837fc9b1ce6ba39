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
package final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
  package typealias InboundIn = HTTPRequestPart
  package typealias InboundOut = HTTPRequestPart
  package typealias OutboundIn = HTTPResponsePart
  package typealias OutboundOut = HTTPResponsePart

  private let headTimeout: TimeAmount
  private let bodyTimeout: TimeAmount
  /// When the connection is closed unless a request arrives first; `nil` while none is awaited.
  private var deadline: NIODeadline?
  /// The one timer of the connection and when it fires. Arming only moves ``deadline``; the
  /// timer, when it fires, closes the connection if the deadline has passed and otherwise waits
  /// for it — so a request costs no timer of its own.
  private var check: (scheduled: Scheduled<Void>, at: NIODeadline)?
  /// Requests whose head has arrived and whose response has not ended.
  private var inFlight = 0

  package init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
    self.headTimeout = headTimeout
    self.bodyTimeout = bodyTimeout
  }

  package func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { arm(headTimeout, context: context) }
  }

  package func channelActive(context: ChannelHandlerContext) {
    arm(headTimeout, context: context)
    context.fireChannelActive()
  }

  package func handlerRemoved(context: ChannelHandlerContext) {
    stop()
  }

  package func channelInactive(context: ChannelHandlerContext) {
    stop()
    context.fireChannelInactive()
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      inFlight += 1
      arm(bodyTimeout, context: context)
    case .body: break
    case .end: disarm()
    }
    context.fireChannelRead(data)
  }

  package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?)
  {
    if case .end = unwrapOutboundIn(data) {
      inFlight = max(0, inFlight - 1)
      if inFlight == 0 { arm(headTimeout, context: context) }
    }
    context.write(data, promise: promise)
  }

  private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
    let deadline = NIODeadline.now() + timeout
    self.deadline = deadline
    if let check, check.at <= deadline { return }
    schedule(at: deadline, context: context)
  }

  private func disarm() {
    deadline = nil
  }

  private func stop() {
    deadline = nil
    check?.scheduled.cancel()
    check = nil
  }

  private func schedule(at time: NIODeadline, context: ChannelHandlerContext) {
    check?.scheduled.cancel()
    let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
    let context = NIOLoopBound(context, eventLoop: context.eventLoop)
    let scheduled = context.value.eventLoop.scheduleTask(deadline: time) {
      handler.value.fire(context: context.value)
    }
    check = (scheduled, time)
  }

  /// The timer fired: closes the connection if its deadline passed, waits for it otherwise.
  private func fire(context: ChannelHandlerContext) {
    check = nil
    guard let deadline else { return }
    if deadline <= .now() {
      context.close(promise: nil)
    } else {
      schedule(at: deadline, context: context)
    }
  }
}
