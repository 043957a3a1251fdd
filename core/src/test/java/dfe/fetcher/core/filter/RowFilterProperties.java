package dfe.fetcher.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Comparisons in a filter agree with exact arithmetic for every pair of JSON numbers, whether each
 * arrives as an integer or as a fraction.
 */
class RowFilterProperties {

  private static final RowFilter GREATER = compile("record.n > record.k");
  private static final RowFilter EQUAL = compile("record.n == record.k");

  private static RowFilter compile(String expression) {
    try {
      return RowFilter.compile(expression);
    } catch (FilterCompileException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  @Property(tries = 500)
  void greaterThanAgreesWithExactComparison(
      @ForAll("numbers") String n, @ForAll("numbers") String k) {
    byte[] row = row(n, k);
    boolean expected = new BigDecimal(n).compareTo(new BigDecimal(k)) > 0;
    assertThat(GREATER.evaluate(row).passes()).as("%s > %s", n, k).isEqualTo(expected);
  }

  @Property(tries = 500)
  void equalityAgreesWithExactComparison(@ForAll("numbers") String n, @ForAll("numbers") String k) {
    byte[] row = row(n, k);
    boolean expected = new BigDecimal(n).compareTo(new BigDecimal(k)) == 0;
    assertThat(EQUAL.evaluate(row).passes()).as("%s == %s", n, k).isEqualTo(expected);
  }

  @Property(tries = 200)
  void aNumberEqualsItselfWrittenAsAFraction(@ForAll("smallIntegers") long n) {
    assertThat(EQUAL.evaluate(row(Long.toString(n), n + ".0")).passes()).isTrue();
  }

  /**
   * JSON spellings of longs and doubles, with small values often so equal and near-equal pairs turn
   * up. A double is written with {@link BigDecimal#toPlainString} of its exact value, so the text
   * is the same number CEL receives.
   */
  @Provide
  Arbitrary<String> numbers() {
    Arbitrary<String> longs = Arbitraries.longs().map(n -> Long.toString(n));
    Arbitrary<String> smallLongs = Arbitraries.longs().between(-3, 3).map(n -> Long.toString(n));
    Arbitrary<String> doubles =
        Arbitraries.doubles()
            .ofScale(3)
            .between(-1e6, 1e6)
            .map(d -> new BigDecimal(d).toPlainString());
    Arbitrary<String> wholeDoubles = Arbitraries.longs().between(-3, 3).map(n -> n + ".0");
    return Arbitraries.oneOf(longs, smallLongs, doubles, wholeDoubles);
  }

  @Provide
  Arbitrary<Long> smallIntegers() {
    // Every integer of at most 53 bits is exactly a double.
    return Arbitraries.longs().between(-(1L << 53), 1L << 53);
  }

  private static byte[] row(String n, String k) {
    return ("{\"record\":{\"n\":" + n + ",\"k\":" + k + "}}").getBytes(StandardCharsets.UTF_8);
  }
}
