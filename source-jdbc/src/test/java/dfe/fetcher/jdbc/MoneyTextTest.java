package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * A money value's text, as each lc_monetary prints it, becomes its exact decimal. The server in the
 * tests has only the C locale, so the other locales' texts are spelled here as PostgreSQL prints
 * them.
 */
class MoneyTextTest {

  @Test
  void theCLocalesTextKeepsEveryCent() {
    assertThat(MoneyText.parse("$1,234.56")).isEqualTo(new BigDecimal("1234.56"));
    assertThat(MoneyText.parse("-$1,234,567.89")).isEqualTo(new BigDecimal("-1234567.89"));
    assertThat(MoneyText.parse("$0.07")).isEqualTo(new BigDecimal("0.07"));
    assertThat(MoneyText.parse("$92,233,720,368,547,758.07"))
        .isEqualTo(new BigDecimal("92233720368547758.07"));
  }

  @Test
  void aCommaDecimalSeparatorAndADotGroupingReadTheSame() {
    assertThat(MoneyText.parse("1.234,56 \u20ac")).isEqualTo(new BigDecimal("1234.56"));
    assertThat(MoneyText.parse("-1.234.567,89 \u20ac")).isEqualTo(new BigDecimal("-1234567.89"));
    assertThat(MoneyText.parse("0,07 \u20ac")).isEqualTo(new BigDecimal("0.07"));
  }

  @Test
  void parenthesesAreANegativeAmount() {
    assertThat(MoneyText.parse("($5.00)")).isEqualTo(new BigDecimal("-5.00"));
  }

  @Test
  void aLocaleWithoutFractionalDigitsGroupsByThree() {
    assertThat(MoneyText.parse("\uffe51,234")).isEqualTo(new BigDecimal("1234"));
    assertThat(MoneyText.parse("\uffe51,234,567")).isEqualTo(new BigDecimal("1234567"));
    assertThat(MoneyText.parse("\uffe5123")).isEqualTo(new BigDecimal("123"));
  }

  @Test
  void aTextWithoutDigitsIsRefused() {
    assertThatThrownBy(() -> MoneyText.parse("$")).isInstanceOf(NumberFormatException.class);
  }
}
