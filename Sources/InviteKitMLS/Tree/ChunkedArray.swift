/// An array stored as fixed-size chunks, each its own copy-on-write array: a copy shares every
/// chunk, and a write copies only the chunk it lands in (plus the outer array of chunk
/// references). A ratchet tree is shared with the epoch before each commit, and a commit writes
/// O(log N) nodes; with a flat array its first write copied, and later released, all 2N-1.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// 64 elements a chunk: a commit's path touches about log2(N) - 5 chunks, and the outer array
    /// of a 10,000-member tree holds 512 references.
    static var chunkShift: Int { 6 }
    static var chunkSize: Int { 1 << chunkShift }

    private var chunks: [[Element]]
    private(set) var count: Int

    init() {
        chunks = []
        count = 0
    }

    init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    init(repeating element: Element, count: Int) {
        self.init(repeatElement(element, count: count))
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            return chunks[i >> Self.chunkShift][i & (Self.chunkSize - 1)]
        }
        set {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            chunks[i >> Self.chunkShift][i & (Self.chunkSize - 1)] = newValue
        }
    }

    /// Chunk `c` (elements `c * chunkSize ..< (c + 1) * chunkSize`) is the very same buffer in
    /// `other`, so every element in it is equal: a tree and its retained copies share most.
    func sharesChunk(_ c: Int, with other: ChunkedArray) -> Bool {
        guard c < chunks.count, c < other.chunks.count, chunks[c].count == other.chunks[c].count else { return false }
        return chunks[c].withUnsafeBufferPointer { a in other.chunks[c].withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for e in elements {
            if count & (Self.chunkSize - 1) == 0 {
                var chunk: [Element] = []
                chunk.reserveCapacity(Self.chunkSize)
                chunks.append(chunk)
            }
            chunks[chunks.count - 1].append(e)
            count += 1
        }
    }

    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "ChunkedArray.removeLast beyond its count")
        count -= k
        let keptChunks = (count + Self.chunkSize - 1) >> Self.chunkShift
        chunks.removeLast(chunks.count - keptChunks)
        let tail = count & (Self.chunkSize - 1)
        if tail != 0 { chunks[chunks.count - 1].removeLast(chunks[chunks.count - 1].count - tail) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Chunks compare by identity first (Array's `==`), so two trees that share most chunks
    /// compare in O(changed).
    static func == (a: ChunkedArray, b: ChunkedArray) -> Bool { a.count == b.count && a.chunks == b.chunks }
}

extension ChunkedArray: Hashable where Element: Hashable {
    func hash(into h: inout Hasher) {
        h.combine(count)
        for e in self { h.combine(e) }
    }
}
