import Prometheus

/// What `GET /metrics` reports, in Prometheus's text format.
public final class CollabMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let connections: Gauge
    let accepted: Counter
    let refused: Counter
    let errors: Counter
    let delivered: Counter
    let delivery: DurationHistogram
    let announced: Counter

    public init() {
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "redline", metricName: metric, unitName: unit, helpText: help)
        }
        connections = registry.makeGauge(descriptor: name("connections", "open", "Open WebSocket connections"))
        accepted = registry.makeCounter(descriptor: name("events_accepted", "total", "Changes committed to a document's log"))
        refused = registry.makeCounter(descriptor: name("events_refused", "total", "Changes refused (rights, versions, invalid XFDF)"))
        errors = registry.makeCounter(descriptor: name("frame_errors", "total", "Frames answered with an error"))
        delivered = registry.makeCounter(descriptor: name("events_delivered", "total", "Events sent to clients (one frame each, or several in a batch)"))
        announced = registry.makeCounter(descriptor: name("commits_announced", "total",
                                                          "Commits the shared database announced (every instance's, this one's too)"))
        delivery = registry.makeDurationHistogram(
            descriptor: name("broadcast_latency", "seconds", "From an event's commit to its frame being written to another client"),
            buckets: [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1)])
    }

    public func text() -> String { registry.emitToString() }
}
