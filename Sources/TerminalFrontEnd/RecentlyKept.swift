/// A few values by key, the least recently kept forgotten past `capacity`: the page rasters and the pictures of
/// pages made ahead.
struct RecentlyKept<Key: Hashable, Value> {
    let capacity: Int
    private var values: [Key: Value] = [:]
    private var order: [Key] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? { values[key] }

    mutating func keep(_ value: Value, for key: Key) {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
        while order.count > capacity { values[order.removeFirst()] = nil }
    }
}
