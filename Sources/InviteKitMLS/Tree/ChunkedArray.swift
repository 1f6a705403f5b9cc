/// An array kept in fixed-size chunks, each copy-on-write on its own: a copy of the whole shares
/// every chunk, and writing one element then copies the chunk list and that one chunk, not every
/// element. The ratchet tree's nodes and hashes live in it, so a commit on a tree shared with the
/// pre-commit state (a retained epoch, a rollback snapshot) copies a few chunks along its path
/// instead of all 2N − 1 nodes.
package struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    private static var shift: Int { 6 }
    private static var chunkSize: Int { 1 << shift }
    private static var mask: Int { chunkSize - 1 }

    private var chunks: [[Element]] = []
    package private(set) var count = 0

    package init() {}

    package init<S: Sequence>(_ elements: S) where S.Element == Element {
        append(contentsOf: elements)
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package var indices: Range<Int> { 0..<count }

    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            return chunks[position >> Self.shift][position & Self.mask]
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            chunks[position >> Self.shift][position & Self.mask] = newValue
        }
    }

    package mutating func append(_ element: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    package mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for e in elements { append(e) }
    }

    package mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove more elements than there are")
        count -= k
        let keep = (count + Self.mask) >> Self.shift
        chunks.removeLast(chunks.count - keep)
        if let last = chunks.indices.last { chunks[last].removeLast(chunks[last].count - (count - last << Self.shift)) }
    }

    package static func += <S: Sequence>(a: inout ChunkedArray, b: S) where S.Element == Element { a.append(contentsOf: b) }

    package var array: [Element] { Array(self) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    package static func == (a: ChunkedArray, b: ChunkedArray) -> Bool { a.count == b.count && a.elementsEqual(b) }
}

extension ChunkedArray: Hashable where Element: Hashable {
    package func hash(into h: inout Hasher) {
        h.combine(count)
        for e in self { h.combine(e) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
