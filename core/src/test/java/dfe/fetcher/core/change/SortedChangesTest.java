package dfe.fetcher.core.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortedChangesTest {

  private static final RowIdentity ID = RowIdentity.of(List.of("/id"));

  private static List<KeyedRow> rows(String... records) {
    List<KeyedRow> rows = new ArrayList<>();
    long seq = 0;
    for (String json : records) {
      RawRecord record = RawRecord.of(json);
      rows.add(
          new KeyedRow(ID.keyOf(record).orElseThrow(), seq++, record.digest(), record.bytes()));
    }
    rows.sort(KeyedRow.ORDER);
    return rows;
  }

  private static List<String> changes(List<KeyedRow> before, List<KeyedRow> after) {
    List<String> events = new ArrayList<>();
    SortedChanges.between(
        before.iterator(),
        after.iterator(),
        event -> events.add(new String(event.toJson(), StandardCharsets.UTF_8)));
    return events;
  }

  @Test
  void addedRemovedAndChangedKeysComeOutInKeyOrder() {
    List<String> events =
        changes(
            rows("{\"id\":\"b\",\"n\":1}", "{\"id\":\"a\",\"n\":1}", "{\"id\":\"c\",\"n\":1}"),
            rows("{\"id\":\"c\",\"n\":2}", "{\"id\":\"a\",\"n\":1}", "{\"id\":\"d\",\"n\":1}"));

    assertThat(events)
        .containsExactly(
            "{\"op\":\"remove\",\"key\":\"b\",\"before\":{\"id\":\"b\",\"n\":1},\"after\":null}",
            "{\"op\":\"change\",\"key\":\"c\",\"before\":{\"id\":\"c\",\"n\":1},"
                + "\"after\":{\"id\":\"c\",\"n\":2}}",
            "{\"op\":\"add\",\"key\":\"d\",\"before\":null,\"after\":{\"id\":\"d\",\"n\":1}}");
  }

  @Test
  void theSameValueSpelledAnotherWayIsNoChange() {
    assertThat(changes(rows("{\"id\":1,\"a\":1,\"b\":2}"), rows("{\"b\":2.0, \"id\":1,\"a\":1}")))
        .isEmpty();
  }

  @Test
  void aRowDeliveredTwiceCountsOnce() {
    List<KeyedRow> twice = new ArrayList<>(rows("{\"id\":1}"));
    twice.add(twice.get(0));
    SortedChanges.Counts counts =
        SortedChanges.between(List.<KeyedRow>of().iterator(), twice.iterator(), e -> {});
    assertThat(counts.added()).isEqualTo(1);
  }

  @Test
  void oneKeyAtTwoSeqsIsRefusedNamingTheKeyAndSeqs() {
    assertThatThrownBy(
            () -> changes(rows(), rows("{\"id\":\"x\",\"n\":1}", "{\"id\":\"x\",\"n\":2}")))
        .isInstanceOf(DuplicateKeyException.class)
        .hasMessageContaining("key \"x\" appears at seq 0 and seq 1 of the later snapshot");
  }

  @Test
  void severalPointersMakeAnArrayKeyAndAMissingOneNoKey() {
    RowIdentity composite = RowIdentity.of(List.of("/region", "/id"));
    assertThat(composite.keyOf(RawRecord.of("{\"id\":7,\"region\":\"eu\"}")))
        .hasValueSatisfying(
            key -> assertThat(new String(key, StandardCharsets.UTF_8)).isEqualTo("[\"eu\",7]"));
    assertThat(composite.keyOf(RawRecord.of("{\"id\":7}"))).isEmpty();
    assertThat(ID.keyOf(RawRecord.of("{\"id\":{\"nested\":1}}"))).isEmpty();
  }
}
