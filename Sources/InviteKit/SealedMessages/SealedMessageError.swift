import InviteKitCrypto

/// Why an opened gift wrap is not a usable InviteKit message. The module has one layer error:
/// the `sealed_*` codes are ``ContentTypeError`` codes.
public typealias SealedMessageError = ContentTypeError
