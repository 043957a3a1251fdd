package dfe.fetcher.jdbc;

import java.math.BigDecimal;

/**
 * A PostgreSQL {@code money} value's exact decimal, from the text the server prints for it. The
 * session's {@code lc_monetary} decides that text: the currency symbol and where it stands, the
 * grouping and the decimal separator, and how a negative amount is shown ({@code -$1,234.56},
 * {@code ($1,234.56)}, {@code -1.234,56 €}). Everything but digits, {@code .} and {@code ,} is
 * dropped; a minus sign or an opening parenthesis makes the amount negative. The decimal separator
 * is the last {@code .} or {@code ,} when both occur; when only one of them occurs it is the
 * decimal separator if it occurs once and is not followed by exactly three digits, else grouping
 * ({@code ¥1,234} is 1234). So a locale with three fractional digits reads an amount below 1,000
 * wrong; cast such a column to {@code numeric} in the query.
 */
final class MoneyText {

  private MoneyText() {}

  /**
   * The amount {@code text} shows.
   *
   * @throws NumberFormatException when {@code text} has no digits
   */
  static BigDecimal parse(String text) {
    int lastDot = text.lastIndexOf('.');
    int lastComma = text.lastIndexOf(',');
    int decimalAt = -1;
    if (lastDot >= 0 && lastComma >= 0) {
      decimalAt = Math.max(lastDot, lastComma);
    } else if (lastDot >= 0 || lastComma >= 0) {
      int at = Math.max(lastDot, lastComma);
      char separator = text.charAt(at);
      if (text.indexOf(separator) == at && digitsAfter(text, at) != 3) {
        decimalAt = at;
      }
    }
    StringBuilder digits = new StringBuilder(text.length());
    boolean negative = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        digits.append(c);
      } else if (i == decimalAt) {
        digits.append('.');
      } else if (c == '-' || c == '(') {
        negative = true;
      }
    }
    if (digits.indexOf(".") == digits.length() - 1 || digits.length() == 0) {
      throw new NumberFormatException("a money value without digits");
    }
    BigDecimal amount = new BigDecimal(digits.toString());
    return negative ? amount.negate() : amount;
  }

  private static int digitsAfter(String text, int at) {
    int count = 0;
    for (int i = at + 1; i < text.length() && Character.isDigit(text.charAt(i)); i++) {
      count++;
    }
    return count;
  }
}
