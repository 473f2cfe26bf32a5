internal import Logging
internal import NIOCore

/// The first handler of each read API connection: it watches the bytes both ways and closes a connection whose
/// deadline passed (``ConnectionDeadlines``), so that a client that sends half a request, nothing at all, or reads
/// nothing of its answers cannot hold a descriptor for longer than the limits say.
///
/// Each connection checks its deadlines on a timer of ``ConnectionLimits/tick``, not per request: nothing is
/// scheduled or cancelled on the hot path, where a request costs a few microseconds.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var deadlines: ConnectionDeadlines
    private var check: RepeatedTask?
    private let logger: Logger

    init(limits: ConnectionLimits, logger: Logger) {
        deadlines = ConnectionDeadlines(limits: limits, now: .now())
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        let now = NIODeadline.now()
        bytes.withUnsafeReadableBytes { deadlines.read($0, now: now) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        deadlines.wrote(now: .now())
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        deadlines.writabilityChanged(isWritable: context.channel.isWritable, now: .now())
        context.fireChannelWritabilityChanged()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard check == nil else { return }
        deadlines = ConnectionDeadlines(limits: deadlines.limits, now: .now())
        let tick = deadlines.limits.tick
        // The task runs on the connection's event loop, where the handler and its context live.
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { _ in
            bound.value.handler.closeIfExpired(bound.value.context)
        }
    }

    private func closeIfExpired(_ context: ChannelHandlerContext) {
        guard let expiry = deadlines.expired(at: .now()) else { return }
        stop()
        logger.debug("Closed a read API connection", metadata: ["reason": "\(expiry.rawValue) timeout"])
        context.close(promise: nil)
    }

    private func stop() {
        check?.cancel()
        check = nil
    }
}
