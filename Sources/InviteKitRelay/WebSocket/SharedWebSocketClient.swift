import NIOPosix
import NIOSSL
import WebSocketKit

/// Every relay connection in the process shares NIO's singleton event-loop group (NIO multiplexes
/// the sockets); the client object lives as long as the process.
enum SharedWebSocketClient {
    static let client = make(tls: nil)

    /// A client on the shared group; with `tls`, one per connection attempt (it is cheap: the group is shared).
    static func make(tls: TLSConfiguration?) -> WebSocketClient {
        var config = WebSocketClient.Configuration(tlsConfiguration: tls, maxFrameSize: 1 << 23)
        config.maxAccumulatedFrameSize = RelayMessage.maxMessageBytes
        return WebSocketClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: config)
    }
}
