package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.KeysetMark;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Key values as literals: typed, and unable to end the literal whatever their bytes. */
class KeyLiteralTest {

  private static ClickHouseType.Scalar scalar(String name, ScalarKind kind) {
    return new ClickHouseType.Scalar(name, kind, ZoneOffset.UTC);
  }

  @Test
  void onlyPrintableAsciiOtherThanQuoteAndBackslashStandsAsItself() {
    assertThat(KeyLiteral.quoted("a'b\\c\nd é');DROP".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("'a\\x27b\\x5cc\\x0ad \\xc3\\xa9\\x27);DROP'");
    assertThat(KeyLiteral.quoted(new byte[] {(byte) 0xFF, 0})).isEqualTo("'\\xff\\x00'");
  }

  @Test
  void eachValueIsCastToItsColumnsType() {
    assertThat(
            KeyLiteral.of(
                new KeysetMark.DecimalValue(new BigDecimal("18446744073709551615")),
                scalar("UInt64", ScalarKind.INTEGER)))
        .contains("CAST('18446744073709551615' AS UInt64)");
    assertThat(
            KeyLiteral.of(
                new KeysetMark.DecimalValue(new BigDecimal("1.50")),
                scalar("Decimal(9, 2)", ScalarKind.DECIMAL)))
        .contains("CAST('1.50' AS Decimal(9, 2))");
    assertThat(
            KeyLiteral.of(
                new KeysetMark.TimestampValue(Instant.ofEpochSecond(1710037800)),
                scalar("DateTime('Asia/Kolkata')", ScalarKind.DATETIME)))
        .contains("toDateTime(1710037800)");
    assertThat(
            KeyLiteral.of(
                new KeysetMark.BytesValue(new byte[] {(byte) 0xC3, 0x28}),
                scalar("String", ScalarKind.STRING)))
        .contains("CAST('\\xc3(' AS String)");
  }

  @Test
  void aValueTheColumnCannotHoldIsRefused() {
    assertThat(KeyLiteral.of(new KeysetMark.StringValue("x"), scalar("UInt64", ScalarKind.INTEGER)))
        .isEmpty();
    assertThat(
            KeyLiteral.of(
                new KeysetMark.DecimalValue(new BigDecimal("1.5")),
                scalar("Int64", ScalarKind.INTEGER)))
        .isEmpty();
    assertThat(
            KeyLiteral.of(
                new KeysetMark.TimestampValue(Instant.ofEpochSecond(1, 5)),
                scalar("DateTime", ScalarKind.DATETIME)))
        .isEmpty();
  }

  @Test
  void identifiersAreBackquotedWithTheirQuotesEscaped() {
    assertThat(KeyLiteral.identifier("select")).isEqualTo("`select`");
    assertThat(KeyLiteral.identifier("a`b\\c")).isEqualTo("`a\\`b\\\\c`");
  }
}
