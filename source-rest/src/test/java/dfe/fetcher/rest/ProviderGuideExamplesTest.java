package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.rest.profile.ShippedProfiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The instance each setup guide ({@code docs/providers/<name>.md}) shows binds against the shipped
 * profile without a problem: the variables it sets exist, the auth mode is one the profile accepts,
 * the units it overrides are the profile's. The guides' blocks need real credentials, so the
 * documentation examples test does not load them; this binds them with a stand-in for each {@code
 * env:} secret and sends nothing.
 */
class ProviderGuideExamplesTest {

  private static final Path GUIDES = Path.of("..", "docs", "providers");
  private static final Pattern INSTANCE = Pattern.compile("    ([A-Za-z0-9_-]+):");
  private static final Pattern ENV_SECRET = Pattern.compile("env:([A-Z_][A-Z0-9_]*)");

  static List<String> shipped() {
    return ShippedProfiles.NAMES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shipped")
  void everyInstanceOfTheGuideBindsAgainstItsProfile(String name) throws IOException {
    List<List<String>> blocks = yamlBlocks(GUIDES.resolve(name + ".md"));
    assertThat(blocks).as("yaml blocks of docs/providers/%s.md", name).isNotEmpty();

    for (List<String> block : blocks) {
      String connection = connection(name, block);
      Map<String, String> environment = new HashMap<>();
      Matcher secret = ENV_SECRET.matcher(connection);
      while (secret.find()) {
        environment.put(secret.group(1), "a-stand-in-value");
      }
      assertThat(connection).as("an instance in %s.md", name).contains("profile: " + name + "\n");
      assertThat(RestFixture.problems(connection, environment))
          .as("binding the instance of docs/providers/%s.md:\n%s", name, connection)
          .isEmpty();
    }
  }

  /** The instance's mapping out of a {@code sources: rest: ID:} block, indented as its own. */
  private static String connection(String name, List<String> block) {
    assertThat(block.size()).as("a block of %s.md", name).isGreaterThan(3);
    assertThat(block.subList(0, 2)).containsExactly("sources:", "  rest:");
    assertThat(block.get(2)).as("the instance id line of %s.md", name).matches(INSTANCE);
    StringBuilder mapping = new StringBuilder();
    for (String line : block.subList(3, block.size())) {
      assertThat(line).as("one instance per block in %s.md", name).startsWith("      ");
      mapping.append(line.substring(6)).append('\n');
    }
    return mapping.toString();
  }

  private static List<List<String>> yamlBlocks(Path guide) throws IOException {
    List<List<String>> blocks = new ArrayList<>();
    List<String> current = null;
    for (String line : Files.readAllLines(guide, StandardCharsets.UTF_8)) {
      if (current == null && line.equals("```yaml")) {
        current = new ArrayList<>();
      } else if (current != null && line.startsWith("```")) {
        blocks.add(current);
        current = null;
      } else if (current != null) {
        current.add(line);
      }
    }
    return blocks;
  }
}
