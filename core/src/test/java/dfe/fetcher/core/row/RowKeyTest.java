package dfe.fetcher.core.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.RawRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RowKeyTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/id | {\"id\":\"h-1\",\"n\":2} | h-1",
        "/id | {\"id\":42} | 42",
        "/id | {\"id\":4.5} | 4.5",
        "/id | {\"id\":true} | true",
        "/a/b | {\"a\":{\"b\":\"deep\"}} | deep",
        "/1 | [\"zero\",\"one\"] | one",
        "/id | {\"other\":{\"id\":\"nested\"},\"id\":\"top\"} | top",
      })
  void theKeyIsTheValueAtThePointerAsText(String pointer, String record, String key) {
    assertThat(RowKey.at(pointer).of(RawRecord.of(record))).contains(key);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/id | {\"n\":1}",
        "/id | {\"id\":null}",
        "/id | {\"id\":{\"x\":1}}",
        "/id | {\"id\":[1]}",
        "/id | \"a string record\"",
        "/id | {not json",
      })
  void noValueOrANonScalarGivesNoKey(String pointer, String record) {
    assertThat(RowKey.at(pointer).of(RawRecord.of(record))).isEmpty();
  }

  @Test
  void aPointerWithoutALeadingSlashIsRefused() {
    assertThatThrownBy(() -> RowKey.at("id"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"id\" is not a JSON pointer");
  }
}
