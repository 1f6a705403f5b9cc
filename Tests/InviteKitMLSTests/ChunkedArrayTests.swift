import XCTest
@testable import InviteKitMLS

/// The ratchet tree's chunked storage behaves as an array: copies are independent, and growing
/// or cutting it across chunk boundaries keeps every element.
final class ChunkedArrayTests: XCTestCase {
    func testBehavesAsAnArray() {
        var reference: [Int] = []
        var chunked = ChunkedArray<Int>()
        for n in [0, 1, 63, 64, 65, 127, 128, 129, 300] {
            reference = Array(0..<n)
            chunked = ChunkedArray(0..<n)
            XCTAssertEqual(chunked.array, reference)
            for k in [0, 1, n / 2, n] where k <= n {
                var a = reference, c = chunked
                a.removeLast(k); c.removeLast(k)
                XCTAssertEqual(c.array, a, "n \(n) cut \(k)")
                a += [7, 8, 9]; c += [7, 8, 9]
                XCTAssertEqual(c.array, a)
                XCTAssertEqual(c.count, a.count)
            }
        }
        // A write to a copy leaves the original alone, in any chunk.
        let original = ChunkedArray(0..<200)
        var copy = original
        for i in [0, 63, 64, 199] { copy[i] = -1 }
        XCTAssertEqual(original.array, Array(0..<200))
        XCTAssertEqual(copy.filter { $0 == -1 }.count, 4)
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(ChunkedArray(0..<200), original)
        XCTAssertTrue(original[(64 + 1)...].allSatisfy { $0 > 64 })
    }
}
