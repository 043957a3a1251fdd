package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Test;

/**
 * A unit's records carry when its tick began, and a task that starts reads it back to tick the unit
 * when its interval says, not at once.
 */
class LastTicksTest {

  private static final String STORE = "api.items";
  private static final Duration HOUR = Duration.ofHours(1);
  private static final long NOW = Instant.parse("2026-12-01T12:00:00Z").toEpochMilli();

  /** Offsets as Connect stored them, by store. */
  private static OffsetStorageReader stored(Map<String, Map<String, Object>> byStore) {
    return new OffsetStorageReader() {
      @Override
      public <T> Map<String, Object> offset(Map<String, T> partition) {
        return byStore.get((String) partition.get(ConnectTransport.STORE));
      }

      @Override
      public <T> Map<Map<String, T>, Map<String, Object>> offsets(
          Collection<Map<String, T>> partitions) {
        Map<Map<String, T>, Map<String, Object>> offsets = new HashMap<>();
        partitions.forEach(partition -> offsets.put(partition, offset(partition)));
        return offsets;
      }
    };
  }

  @Test
  void theRecordsOfATickCarryWhenItBegan() throws Exception {
    ConnectTransport transport =
        new ConnectTransport(Optional.empty(), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    transport.tickStarted(STORE, NOW - 1000);
    transport.send(
        new Transport.UnitBatch(
            STORE,
            List.of(
                new OutboundRecord(
                    "api-items_land", Optional.empty(), new byte[] {'1'}, List.of())),
            Optional.empty(),
            true));

    SourceRecord record = transport.poll(10, 1000).get(0);

    Map<String, ?> offset = record.sourceOffset();
    assertThat(offset.get(ConnectTransport.TICK_STARTED)).isEqualTo(NOW - 1000);
    assertThat(offset.containsKey(ConnectTransport.MARK)).isFalse();
  }

  @Test
  void recordsBeforeATicksFirstSettledPointCarryTheTimeOfTheTickBefore() throws Exception {
    ConnectTransport transport =
        new ConnectTransport(Optional.empty(), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    transport.tickStarted(STORE, NOW - 2000);
    transport.send(batch(true)); // the first tick's dump ends
    transport.tickStarted(STORE, NOW - 1000);
    transport.send(batch(false)); // the second's is cut half way

    List<SourceRecord> records = transport.poll(10, 1000);

    assertThat(records.get(0).sourceOffset().get(ConnectTransport.TICK_STARTED))
        .isEqualTo(NOW - 2000);
    assertThat(records.get(1).sourceOffset().get(ConnectTransport.TICK_STARTED))
        .as("a cut tick does not say the unit ticked")
        .isEqualTo(NOW - 2000);
  }

  private static Transport.UnitBatch batch(boolean endsPart) {
    return new Transport.UnitBatch(
        STORE,
        List.of(
            new OutboundRecord("api-items_land", Optional.empty(), new byte[] {'1'}, List.of())),
        Optional.empty(),
        endsPart);
  }

  @Test
  void anOffsetHoldingOnlyTheTickTimeMayBeAlteredThroughConnect() {
    assertThat(
            new DfeSourceConnector()
                .alterOffsets(
                    Map.of(),
                    Map.of(
                        Map.of(ConnectTransport.STORE, STORE),
                        Map.of(ConnectTransport.TICK_STARTED, NOW))))
        .isTrue();
  }

  @Test
  void aUnitWhoseLastTickBeganTenMinutesAgoIsDueInFiftyMinutes() {
    LastTicks ticks =
        new LastTicks(
            stored(
                Map.of(
                    STORE,
                    Map.of(
                        ConnectTransport.TICK_STARTED, NOW - Duration.ofMinutes(10).toMillis()))));

    assertThat(ticks.dueMillis(STORE, HOUR, NOW))
        .isEqualTo(NOW + Duration.ofMinutes(50).toMillis());
  }

  @Test
  void aUnitOverdueOrNeverTickedIsDueNow() {
    LastTicks ticks =
        new LastTicks(
            stored(
                Map.of(STORE, Map.of(ConnectTransport.TICK_STARTED, NOW - 2 * HOUR.toMillis()))));

    assertThat(ticks.dueMillis(STORE, HOUR, NOW)).isEqualTo(NOW);
    assertThat(ticks.dueMillis("api.other", HOUR, NOW)).isEqualTo(NOW);
  }

  @Test
  void aLastTickInTheFutureWaitsNoLongerThanOneInterval() {
    LastTicks ticks =
        new LastTicks(
            stored(
                Map.of(STORE, Map.of(ConnectTransport.TICK_STARTED, NOW + 5 * HOUR.toMillis()))));

    assertThat(ticks.dueMillis(STORE, HOUR, NOW)).isEqualTo(NOW + HOUR.toMillis());
  }
}
