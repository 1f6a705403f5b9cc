import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Every public throwing call of the InviteKit module throws ``InviteKitError`` and nothing
/// else (issue 30): the sources under `Sources/InviteKit` are read, every `public`/`open`
/// function, initializer and subscript is found, and each that throws must say
/// `throws(InviteKitError)`. A new public call that throws anything else (untyped `throws`, a
/// layer's error type) fails this test.
///
/// One exception: the content-type layer (`Sources/InviteKit/ContentTypes`) throws its own
/// `ContentTypeError`, because the fuzzers compile that directory alone, without the taxonomy
/// (Fuzz/Package.swift, `InviteKitContentTypes`). Its `ContentCodec` witnesses keep the
/// protocol's untyped `throws` (an app's codec implements the same requirement). Both map into
/// the taxonomy with ``InviteKitError/from(_:)``, and the node never lets them out. Any other
/// type in that directory, and anything anywhere else, fails.
///
/// Not covered: `package` declarations (not API).
final class PublicThrowsTests: XCTestCase {
    static let sources = VectorFiles.root.deletingLastPathComponent().appendingPathComponent("Sources/InviteKit")
    /// `ContentCodec` requirements implemented in the content-type layer, and the registry's
    /// decode that calls them.
    static let contentCodecWitnesses: Set<String> = ["encode", "decode"]

    func testEveryPublicThrowingCallThrowsInviteKitError() throws {
        var found = 0
        var wrong: [String] = []
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 50, "the module's sources were not found at \(Self.sources.path)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let contentLayer = file.deletingLastPathComponent().lastPathComponent == "ContentTypes"
            for d in PublicDeclarationScanner.throwingDeclarations(in: text) {
                found += 1
                let effects = d.effects.replacingOccurrences(of: " ", with: "")
                if effects.contains("throws(InviteKitError)") { continue }
                // The one exception, see the type's documentation.
                if contentLayer, effects.contains("throws(ContentTypeError)") || Self.contentCodecWitnesses.contains(d.name) { continue }
                wrong.append("\(file.lastPathComponent):\(d.line): \(d.signature)")
            }
        }
        XCTAssertEqual(wrong, [], "public calls that throw something other than InviteKitError")
        // The node's calls alone are more than this: a scanner that stopped finding them fails here.
        XCTAssertGreaterThan(found, 50)
    }

    /// The scanner itself: it sees what it must flag, and ignores what it must not.
    func testTheScannerFlagsOtherErrorTypes() {
        let sample = """
            public struct S {
                /// public func commented() throws {}
                public func a() throws -> Int { 1 }
                public func b(_ f: () throws(X) -> Void) async throws(InviteKitError) { }
                public static func c<T>(x: T,
                                        y: Int) async throws(LayerError) -> [T] where T: Sendable { [] }
                public init(parsing text: String) throws(InviteKitError) {}
                @_spi(Fuzzing) public func d() throws {}
                public func e(_ f: () throws -> Void) rethrows {}
                package func f() throws {}
                public var g: Int { 1 }
                public func h() {}
            }
            """
        let found = PublicDeclarationScanner.throwingDeclarations(in: sample)
        XCTAssertEqual(found.map(\.name), ["a", "b", "c", "init", "d"])
        XCTAssertEqual(found.filter { !$0.effects.contains("throws(InviteKitError)") }.map(\.name), ["a", "c", "d"])
        XCTAssertEqual(found.first { $0.name == "c" }?.line, 5)
    }
}

/// Finds `public`/`open` functions, initializers and subscripts in Swift source text, with the
/// effects written after their parameter list. Comments and string literals are blanked first, so
/// a `public func` in a doc comment is not a declaration.
enum PublicDeclarationScanner {
    struct Declaration {
        let name: String
        let line: Int
        /// What follows the parameter list up to `->`, `where` or the body: `async throws(E)`.
        let effects: String
        let signature: String
    }

    static func throwingDeclarations(in source: String) -> [Declaration] {
        let text = Array(blankingCommentsAndStrings(source))
        var out: [Declaration] = []
        var i = 0
        while i < text.count {
            guard let (word, end) = word(at: i, in: text) else { i += 1; continue }
            defer { i = max(end, i + 1) }
            guard word == "public" || word == "open" else { continue }
            // Modifiers between `public` and the keyword (`static`, `nonisolated`, `mutating`, ...).
            var j = end
            var keyword: String?
            while let (next, nextEnd) = nextWord(from: j, in: text) {
                j = nextEnd
                if ["func", "init", "subscript"].contains(next) { keyword = next; break }
                if ["static", "class", "final", "nonisolated", "mutating", "nonmutating", "override", "convenience", "required",
                    "dynamic", "isolated", "consuming", "borrowing", "__consuming"].contains(next) { continue }
                break
            }
            guard let keyword else { continue }
            var name = keyword
            if keyword == "func", let (n, nEnd) = nextWord(from: j, in: text) { name = n; j = nEnd }
            // The parameter list: the first `(` after the name (and any generic clause), balanced.
            guard let open = text[j...].firstIndex(of: "(") else { continue }
            var depth = 0
            var close = open
            for k in open..<text.count {
                if text[k] == "(" { depth += 1 } else if text[k] == ")" { depth -= 1; if depth == 0 { close = k; break } }
            }
            // The effects sit between the parameter list and `->`, `where` or the body, on its line.
            var stop = close + 1
            while stop < text.count, text[stop] != "{", text[stop] != "\n" { stop += 1 }
            var effects = String(text[close + 1..<stop])
            for cut in ["->", " where "] { if let r = effects.range(of: cut) { effects = String(effects[..<r.lowerBound]) } }
            effects = effects.trimmingCharacters(in: .whitespaces)
            guard effects.range(of: #"\bthrows\b"#, options: .regularExpression) != nil else { continue }
            let line = text[..<i].filter { $0 == "\n" }.count + 1
            let signature = String(text[i..<stop]).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            out.append(Declaration(name: name, line: line, effects: effects, signature: signature))
        }
        return out
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    private static func word(at i: Int, in text: [Character]) -> (String, Int)? {
        guard isWordCharacter(text[i]), i == 0 || !isWordCharacter(text[i - 1]) else { return nil }
        var end = i
        while end < text.count, isWordCharacter(text[end]) { end += 1 }
        return (String(text[i..<end]), end)
    }

    /// The next identifier after `from`, skipping spaces and attributes such as `@_spi(X)`.
    private static func nextWord(from start: Int, in text: [Character]) -> (String, Int)? {
        var k = start
        while k < text.count, text[k].isWhitespace { k += 1 }
        guard k < text.count, isWordCharacter(text[k]) else { return nil }
        var end = k
        while end < text.count, isWordCharacter(text[end]) { end += 1 }
        return (String(text[k..<end]), end)
    }

    /// The source with `//` and `/* */` comments and string literals replaced by spaces (newlines
    /// kept, so line numbers hold).
    static func blankingCommentsAndStrings(_ source: String) -> String {
        let c = Array(source)
        var out = c
        var k = 0
        func blank(_ from: Int, _ to: Int) { for x in from..<min(to, c.count) where c[x] != "\n" { out[x] = " " } }
        while k < c.count {
            if c[k] == "/", k + 1 < c.count, c[k + 1] == "/" {
                var e = k
                while e < c.count, c[e] != "\n" { e += 1 }
                blank(k, e); k = e
            } else if c[k] == "/", k + 1 < c.count, c[k + 1] == "*" {
                var e = k + 2
                while e + 1 < c.count, !(c[e] == "*" && c[e + 1] == "/") { e += 1 }
                blank(k, e + 2); k = e + 2
            } else if c[k] == "\"" {
                let triple = k + 2 < c.count && c[k + 1] == "\"" && c[k + 2] == "\""
                var e = k + (triple ? 3 : 1)
                while e < c.count {
                    if c[e] == "\\" { e += 2; continue }
                    if triple, e + 2 < c.count, c[e] == "\"", c[e + 1] == "\"", c[e + 2] == "\"" { e += 3; break }
                    if !triple, c[e] == "\"" { e += 1; break }
                    e += 1
                }
                blank(k, e); k = e
            } else {
                k += 1
            }
        }
        return String(out)
    }
}
