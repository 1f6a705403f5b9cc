import Foundation
import InviteKitNostr

/// Codec for `convos.org/invite_join_error:1.0`: UTF-8 JSON
/// `{"errorType","inviteTag","timestamp"(ISO 8601),"reason"?}`.
public struct InviteJoinErrorCodec: ContentCodec {
    public init() {}
    public var contentType: ContentTypeID { .inviteJoinError }

    public func encode(_ content: InviteJoinError) throws -> EncodedContent {
        EncodedContent(type: contentType, fallback: fallback(content), content: Self.json(content))
    }

    public func decode(_ encoded: EncodedContent) throws -> InviteJoinError {
        try requireReadable(encoded)
        return try Self.parse(encoded.content)
    }

    public func fallback(_ content: InviteJoinError) -> String? { content.userFacingMessage }
    public func shouldPush(_ content: InviteJoinError) -> Bool { true }

    static func json(_ e: InviteJoinError) -> [UInt8] {
        var members = [JSONMember("errorType", .string(e.errorType.rawValue)),
                       JSONMember("inviteTag", .string(e.inviteTag)),
                       JSONMember("timestamp", .string(ISO8601.format(e.timestamp)))]
        if let r = e.reason { members.append(JSONMember("reason", .string(String(r.prefix(InviteJoinError.maxReasonLength))))) }
        var w = JSONWriter(); w.value(.object(members)); return w.bytes
    }

    static func parse(_ bytes: [UInt8]) throws(ContentTypeError) -> InviteJoinError {
        guard !bytes.isEmpty else { throw ContentTypeError(.emptyContent) }
        guard let v = try? JSONParser.parse(bytes, maxBytes: 8192, maxDepth: 4), case .object = v else {
            throw ContentTypeError(.invalidJSONFormat, "not a JSON object")
        }
        guard let type = v["errorType"]?.stringValue, let tag = v["inviteTag"]?.stringValue,
              let stamp = v["timestamp"]?.stringValue, let date = ISO8601.parse(stamp) else {
            throw ContentTypeError(.invalidJSONFormat, "errorType, inviteTag and an ISO 8601 timestamp are required")
        }
        var reason: String?
        if let r = v["reason"], r != .null {
            guard let s = r.stringValue else { throw ContentTypeError(.invalidJSONFormat, "reason must be a string") }
            guard s.count <= InviteJoinError.maxReasonLength else {
                throw ContentTypeError(.invalidJSONFormat, "reason longer than \(InviteJoinError.maxReasonLength) characters")
            }
            reason = s
        }
        return InviteJoinError(errorType: .init(rawValue: type), inviteTag: tag, timestamp: date, reason: reason)
    }
}

/// ISO 8601 instants, written without and read with or without fractional seconds.
enum ISO8601 {
    static func format(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        // Fuzz finding (issue 6): ICU divides by zero (SIGFPE) on a ~40-digit fraction and misreads
        // years outside 1000...9999 (0000, 0001+offset, 5+ digits, signed): RFC 3339 lengths only.
        guard (20...35).contains(text.utf8.count), text.utf8.prefix(4).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), !text.hasPrefix("0"), text.utf8.dropFirst(4).first == 0x2D else { return nil }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let d = plain.date(from: text) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
