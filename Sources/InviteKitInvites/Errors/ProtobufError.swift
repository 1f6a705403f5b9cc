import InviteKitCrypto

/// A malformed protobuf message. The invite layer has one error type: the wire-format codes
/// (`truncated_varint`, `group_wire_type`, …) are ``InviteError`` codes.
public typealias ProtobufError = InviteError
