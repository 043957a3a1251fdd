package dfe.fetcher.source.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class YamlTreeReaderTest {

  private static final Path FILE = Path.of("config.yaml");

  private final Problems problems = new Problems();

  private YamlNode read(String text) throws ConfigException {
    return new YamlTreeReader(FILE, problems).read(text).orElseThrow();
  }

  private List<String> reported() {
    return problems.inReadingOrder().stream().map(ConfigProblem::render).toList();
  }

  @Test
  void everyNodeKeepsItsLineAndColumn() throws Exception {
    YamlNode root = read("a: 1\nb:\n  c: [x, y]\n");

    Section section = Section.of(Optional.of(root), root.origin(), "", List.of("a", "b"), problems);
    Section b = section.section("b", List.of("c"));

    assertThat(section.originOf("a").render()).isEqualTo("config.yaml:1:4");
    assertThat(b.originOf("c").render()).isEqualTo("config.yaml:3:6");
    assertThat(problems.isEmpty()).isTrue();
  }

  @Test
  void aDuplicateKeyIsReportedAtTheSecondNamingTheFirst() throws Exception {
    read("a: 1\na: 2\n");

    assertThat(reported())
        .containsExactly("config.yaml:2:1: a: duplicate key 'a' (first at config.yaml:1:1)");
  }

  @Test
  void anAliasIsReportedNotResolved() throws Exception {
    read("a: &x 1\nb: *x\n");

    assertThat(reported()).hasSize(1);
    assertThat(reported().get(0)).startsWith("config.yaml:2:").contains("b: YAML aliases");
  }

  @Test
  void aSecondDocumentIsReported() throws Exception {
    read("a: 1\n---\nb: 2\n");

    assertThat(reported()).singleElement().asString().contains("a second YAML document");
  }

  @Test
  void aSyntaxErrorNamesItsPlaceWithoutQuotingTheLine() {
    assertThatThrownBy(() -> read("password: s3cr3t\nb: [unclosed\n"))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            error ->
                assertThat(((ConfigException) error).problems())
                    .singleElement()
                    .satisfies(
                        problem -> {
                          assertThat(problem.render()).startsWith("config.yaml:");
                          assertThat(problem.render()).doesNotContain("s3cr3t", "unclosed");
                        }));
  }

  @Test
  void anEmptyDocumentHasNoRoot() throws Exception {
    assertThat(new YamlTreeReader(FILE, problems).read("")).isEmpty();
  }
}
