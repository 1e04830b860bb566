import RedlineCore

/// Places the view jumped away from, oldest first, and where Ctrl-O and Ctrl-F stand among them.
public struct JumpList: Sendable, Hashable {
    public struct Place: Sendable, Hashable {
        public var pageIndex: Int
        public var scroll: Point
    }

    public private(set) var places: [Place] = []
    /// Where going back and forward stands; `places.count` when at the newest place.
    public private(set) var position = 0
    /// As vim keeps 100.
    static let limit = 100

    /// The place the latest jump left: where `''` goes, as vim's.
    public private(set) var lastLeft: Place?

    /// A jump leaves `place`: places ahead of the current position are dropped, as a new branch of history.
    mutating func record(_ place: Place) {
        lastLeft = place
        places.removeSubrange(min(position, places.count)...)
        if places.last != place { places.append(place) }
        if places.count > Self.limit { places.removeFirst(places.count - Self.limit) }
        position = places.count
    }

    /// The place before the current one; at the newest, `current` is kept first so Ctrl-F can come back to it.
    mutating func back(from current: Place) -> Place? {
        if position == places.count {
            guard places.last != current || places.count > 1 else { return nil }
            if places.last != current { places.append(current) }
            position = places.count - 1
        }
        guard position > 0 else { return nil }
        position -= 1
        return places[position]
    }

    mutating func forward() -> Place? {
        guard position + 1 < places.count else { return nil }
        position += 1
        return places[position]
    }
}

extension Viewport {
    public var place: JumpList.Place { JumpList.Place(pageIndex: pageIndex, scroll: scroll) }
}
