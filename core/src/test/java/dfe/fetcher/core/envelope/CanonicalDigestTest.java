package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalDigestTest {

  private static long digest(String json) {
    return CanonicalDigest.of(json.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1,\"b\":2} | { \"b\" : 2 , \"a\" : 1 }",
        "1 | 1.0",
        "100 | 1e2",
        "0 | -0.0",
        "1.5 | 15e-1",
        "123456789012345678901234567890 | 1.23456789012345678901234567890e29",
        "\"\\u00e9\" | \"é\"",
        "[1,{\"x\":null}] | [ 1 , { \"x\" : null } ]",
      })
  void theSameJsonValueHasTheSameDigest(String one, String other) {
    assertThat(digest(one)).isEqualTo(digest(other));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1,\"b\":2} | {\"a\":2,\"b\":1}",
        "[1,2] | [2,1]",
        "1 | \"1\"",
        "null | false",
        "true | false",
        "{} | []",
        "\"ab\" | \"ba\"",
        "{\"a\":{}} | {\"a\":[]}",
        "[[]] | [[],[]]",
        "1 | 1.0000000000000000001",
      })
  void differentJsonValuesHaveDifferentDigests(String one, String other) {
    assertThat(digest(one)).isNotEqualTo(digest(other));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"'' | empty", "{\"a\": | not valid JSON", "1 2 | more than one"})
  void bytesThatAreNotOneJsonValueAreRefused(String json, String reason) {
    assertThatThrownBy(() -> digest(json))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(reason);
  }
}
