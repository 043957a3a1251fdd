package dfe.fetcher.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.app.logging.LogfmtFields.Value;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogfmtFieldsTest {

  @Test
  void unquotedAndQuotedValuesAreReadWithTheirEscapesUndone() {
    Map<String, Value> fields =
        LogfmtFields.parse(
            "event=tick_failed unit=crm.events error=\"a \\\"quoted\\\" word, a \\\\ and\\na line\""
                + " seconds=0.25");

    assertThat(fields)
        .containsExactly(
            Map.entry("event", new Value("tick_failed", false)),
            Map.entry("unit", new Value("crm.events", false)),
            Map.entry("error", new Value("a \"quoted\" word, a \\ and\na line", true)),
            Map.entry("seconds", new Value("0.25", false)));
  }

  @Test
  void proseAroundPairsIsPassedOverAndAKeyGivenTwiceKeepsItsFirstValue() {
    Map<String, Value> fields =
        LogfmtFields.parse("Node 1 disconnected. event=x =y a=1 note: a=2 b=\"unclosed");

    assertThat(fields)
        .containsExactly(
            Map.entry("event", new Value("x", false)), Map.entry("a", new Value("1", false)));
  }

  @Test
  void anEmptyUnquotedValueIsAnEmptyString() {
    assertThat(LogfmtFields.parse("event=e empty= next=1"))
        .containsEntry("empty", new Value("", false))
        .containsEntry("next", new Value("1", false));
  }
}
