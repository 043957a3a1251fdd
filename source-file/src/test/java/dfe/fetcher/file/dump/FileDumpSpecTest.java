package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A unit's {@code dump:} settings are checked when they are bound, not when files are read. */
class FileDumpSpecTest {

  private static final Path BASE = Path.of("/etc/dfe-fetcher");

  @Test
  void noGlobIsRefused() {
    assertThatThrownBy(() -> new FileDumpSpec(List.of(), BASE, Decoder.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("paths is empty");
  }

  @Test
  void aBlankGlobIsRefused() {
    assertThatThrownBy(() -> new FileDumpSpec(List.of(" "), BASE, Decoder.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void aMalformedGlobIsRefusedNamingIt() {
    assertThatThrownBy(() -> new FileDumpSpec(List.of("ok/*.csv", "bad/[x"), BASE, Decoder.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("path glob \"bad/[x\" is malformed");
  }

  @Test
  void theGlobsAreCopiedSoLaterChangesToTheListDoNotLeakIn() {
    List<String> globs = new ArrayList<>(List.of("a/*.csv"));
    FileDumpSpec spec = new FileDumpSpec(globs, BASE, Decoder.AUTO);

    globs.add("b/*.csv");

    assertThat(spec.paths()).containsExactly("a/*.csv");
  }
}
