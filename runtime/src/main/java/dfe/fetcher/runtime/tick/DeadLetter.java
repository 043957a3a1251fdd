package dfe.fetcher.runtime.tick;

import java.util.OptionalLong;

/**
 * A record that will not land where it was going, and why.
 *
 * @param reason the DLQ entry's {@code reason}
 * @param seq the seq its stub took in a dump; empty for a tail record
 * @param payload the bytes kept, already cut to {@code max_dlq_bytes}
 * @param metricReason the {@code reason} label of {@code dfe_fetcher_dlq_total}
 */
record DeadLetter(String reason, OptionalLong seq, byte[] payload, String metricReason) {}
