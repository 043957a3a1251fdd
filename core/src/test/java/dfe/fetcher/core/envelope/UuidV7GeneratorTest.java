package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV7GeneratorTest {

  private final UuidV7Generator generator = new UuidV7Generator();

  @Test
  void carriesVersionSevenAndTheRfc9562Variant() {
    UUID id = generator.mint(1_793_000_000_400L);
    assertThat(id.version()).isEqualTo(7);
    assertThat(id.variant()).isEqualTo(2);
  }

  @Test
  void thePrefixIsTheEpochMillisecond() {
    long millis = 1_793_000_000_400L;
    UUID id = generator.mint(millis);
    assertThat(UuidV7Generator.epochMillisOf(id)).isEqualTo(millis);
    assertThat(id.toString())
        .startsWith(String.format("%08x-%04x", millis >>> 16, millis & 0xFFFF));
  }

  @Test
  void idsMintedInTheSameMillisecondDifferAndSortInMintingOrder() {
    List<String> minted = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      minted.add(generator.mint(1_793_000_000_400L).toString());
    }
    assertThat(new HashSet<>(minted)).hasSize(minted.size());
    assertThat(minted).isSorted();
  }

  @Test
  void idsOfLaterMillisecondsSortAfterEarlierOnes() {
    List<String> minted = new ArrayList<>();
    for (long millis = 1_000; millis < 1_100; millis++) {
      minted.add(generator.mint(millis).toString());
      minted.add(generator.mint(millis).toString());
    }
    assertThat(minted).isSorted();
  }

  @Test
  void refusesAMillisecondOutsideFortyEightBits() {
    assertThatThrownBy(() -> generator.mint(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> generator.mint(1L << 48)).isInstanceOf(IllegalArgumentException.class);
  }
}
