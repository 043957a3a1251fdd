package dfe.fetcher.rest.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's provider table is the rendering of the shipped profiles. When a profile is added or
 * changed, rewrite it with {@code mvn -B -q -pl source-rest -am test -Dtest=ProviderTableTest
 * -Ddfe.readme.write=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ProviderTableTest {

  private static final Path README = Path.of("..", "README.md");

  @Test
  void theReadmesProviderTableIsTheShippedProfilesRendered() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int begin = readme.indexOf(ProviderTable.BEGIN);
    int end = readme.indexOf(ProviderTable.END);
    assertThat(begin).as("the README marks its provider table").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    String expected = ProviderTable.render();
    if (Boolean.getBoolean("dfe.readme.write")) {
      readme =
          readme.substring(0, begin + ProviderTable.BEGIN.length())
              + "\n"
              + expected
              + readme.substring(end);
      Files.writeString(README, readme, StandardCharsets.UTF_8);
    }
    String now = Files.readString(README, StandardCharsets.UTF_8);
    String written =
        now.substring(
                now.indexOf(ProviderTable.BEGIN) + ProviderTable.BEGIN.length(),
                now.indexOf(ProviderTable.END))
            .strip();

    assertThat(written)
        .as("README.md's provider table; rewrite it with -Ddfe.readme.write=true")
        .isEqualTo(expected.strip());
  }

  @Test
  void everyProviderProfileIsInTheTableWithItsUnitsAuthAndMaturity() {
    String table = ProviderTable.render();

    assertThat(table)
        .contains("| `gcp` | 9: admin_activity, data_access,")
        .contains("| `gcp_pubsub` | 1: pull | `jwt_bearer`, `bearer` | alpha |")
        .doesNotContain("`generic-json`");
    long providers =
        ShippedProfiles.NAMES.stream()
            .filter(name -> !ProviderTable.NOT_PROVIDERS.contains(name))
            .count();
    assertThat(table.lines().count()).isEqualTo(providers + 2);
  }
}
