/// A buffer handed to `concurrentPerform` workers that each write disjoint indices.
struct UnsafeSendableBuffer<T>: @unchecked Sendable {
    // Safe: each worker writes only its own indices, and the owner reads after every worker ended.
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
