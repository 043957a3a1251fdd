package dfe.fetcher.rest.shape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoModuleAggregateTest {

  private final List<String> landed = new ArrayList<>();

  private void fold(long maxBytes, String... rows) throws Exception {
    FoldedRows held = FoldType.GO_MODULE_AGGREGATE.rows(maxBytes);
    for (int i = 0; i < rows.length; i++) {
      held.add(RawRecord.of(rows[i]), "page row " + i);
    }
    held.fold(
        "go.metadata key 1", row -> landed.add(new String(row.bytes(), StandardCharsets.UTF_8)));
  }

  private void fold(String... rows) throws Exception {
    fold(1 << 20, rows);
  }

  @Test
  void theLatestTimeIsTheLastPublishedAndTheFirstOfEqualTimesWins() throws Exception {
    fold(
        "{\"Version\":\"v1.0.0\",\"Time\":\"2020-01-01T00:00:00Z\",\"_dfe_fetcher_module\":\"m\"}",
        "{\"Version\":\"v1.1.0\",\"Time\":\"2021-01-01T02:00:00+02:00\",\"_dfe_fetcher_module\":\"m\"}",
        "{\"Version\":\"v2.0.0\",\"Time\":\"2021-01-01T00:00:00Z\",\"_dfe_fetcher_module\":\"m\"}");

    assertThat(landed)
        .containsExactly(
            "{\"_dfe_fetcher_module\":\"m\",\"versions\":["
                + "{\"Version\":\"v1.0.0\",\"Time\":\"2020-01-01T00:00:00Z\"},"
                + "{\"Version\":\"v1.1.0\",\"Time\":\"2021-01-01T02:00:00+02:00\"},"
                + "{\"Version\":\"v2.0.0\",\"Time\":\"2021-01-01T00:00:00Z\"}],\"version_count\":3,"
                + "\"last_published_version\":\"v1.1.0\","
                + "\"last_published_time\":\"2021-01-01T02:00:00+02:00\"}");
  }

  @Test
  void documentsWithoutATimeGiveNoLastPublished() throws Exception {
    fold("{\"Version\":\"v0.1.0\"}", "{\"Version\":\"v0.2.0\",\"Origin\":{\"VCS\":\"git\"}}");

    assertThat(landed)
        .containsExactly(
            "{\"versions\":[{\"Version\":\"v0.1.0\"},{\"Version\":\"v0.2.0\",\"Origin\":"
                + "{\"VCS\":\"git\"}}],\"version_count\":2}");
  }

  @Test
  void noDocumentIsNoRow() throws Exception {
    fold();

    assertThat(landed).isEmpty();
  }

  @Test
  void anAddedFieldThatDiffersBetweenRowsFailsTheListing() {
    assertThatThrownBy(
            () ->
                fold(
                    "{\"Version\":\"v1.0.0\",\"_dfe_fetcher_module\":\"a\"}",
                    "{\"Version\":\"v1.1.0\",\"_dfe_fetcher_module\":\"b\"}"))
        .isInstanceOf(SourceException.class)
        .hasMessage(
            "go.metadata key 1: row 1: _dfe_fetcher_module differs from the first row's;"
                + " add_fields of a fold must be the same on every row of a listing"
                + " (fold go_module_aggregate)");
    assertThat(landed).isEmpty();
  }

  @Test
  void aTimeThatIsNotRfc3339FailsTheListingWithoutQuotingIt() {
    assertThatThrownBy(
            () ->
                fold(
                    "{\"Version\":\"v1.0.0\",\"Time\":\"2020-01-01T00:00:00Z\"}",
                    "{\"Version\":\"v1.1.0\",\"Time\":\"yesterday\"}"))
        .hasMessage(
            "go.metadata key 1: row 1: Time is not an RFC 3339 time (fold go_module_aggregate)");
    assertThat(landed).isEmpty();
  }

  @Test
  void heldRowsLongerThanTheBoundFailBeforeTheNextIsHeld() {
    String row = "{\"Version\":\"v1.0.0\"}";

    assertThatThrownBy(() -> fold(row.length() * 2L - 1, row, row))
        .hasMessage(
            "page row 1: the rows construct.fold holds for one listing are longer than"
                + " max_page_bytes "
                + (row.length() * 2L - 1));
  }

  @Test
  void aFoldedRowLongerThanTheBoundFails() {
    String row = "{\"Version\":\"v1.0.0\"}";

    assertThatThrownBy(() -> fold(row.length(), row))
        .hasMessage(
            "go.metadata key 1: the folded row is longer than max_page_bytes " + row.length());
  }

  @Test
  void numbersAreKeptExact() throws Exception {
    fold("{\"Version\":\"v1.0.0\",\"Size\":1.50}");

    assertThat(landed)
        .containsExactly(
            "{\"versions\":[{\"Version\":\"v1.0.0\",\"Size\":1.50}],\"version_count\":1}");
  }
}
