"""The event store: envelopes, the append protocol, reads, snapshots, the outbox and the embedded Redis."""
