package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class AsciiLongProperties {

  @Property(tries = 2000)
  void aLongIsWrittenAsLongToStringSpellsIt(@ForAll long value) {
    assertWrittenAsToString(value);
  }

  @Property(tries = 500)
  void smallAndPowerOfTenBoundaryValuesToo(@ForAll @LongRange(min = -1001, max = 1001) long near) {
    assertWrittenAsToString(near);
    for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10; power *= 10) {
      assertWrittenAsToString(power - 1);
      assertWrittenAsToString(power);
    }
    assertWrittenAsToString(Long.MAX_VALUE);
    assertWrittenAsToString(Long.MIN_VALUE);
  }

  private static void assertWrittenAsToString(long value) {
    byte[] expected = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[AsciiLong.length(value) + 2];
    int end = AsciiLong.write(value, out, 1);
    assertThat(AsciiLong.length(value)).isEqualTo(expected.length);
    assertThat(end).isEqualTo(1 + expected.length);
    byte[] written = Arrays.copyOfRange(out, 1, end);
    assertThat(written).isEqualTo(expected);
  }
}
