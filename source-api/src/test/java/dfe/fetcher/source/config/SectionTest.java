package dfe.fetcher.source.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SectionTest {

  private final Problems problems = new Problems();

  private Section section(String yaml, String... allowedKeys) throws ConfigException {
    YamlNode root = new YamlTreeReader(Path.of("c.yaml"), problems).read(yaml).orElseThrow();
    return Section.of(Optional.of(root), root.origin(), "unit", List.of(allowedKeys), problems);
  }

  private List<String> reported() {
    return problems.inReadingOrder().stream().map(ConfigProblem::render).toList();
  }

  @Test
  void anUnknownKeyIsReportedWithItsPathAndTheAllowedKeys() throws Exception {
    section("name: a\nnmae: b\n", "name");

    assertThat(reported())
        .containsExactly("c.yaml:2:1: unit.nmae: unknown key; allowed keys: name");
  }

  @Test
  void aValueOfTheWrongTypeIsReportedAndTheFallbackUsed() throws Exception {
    Section section = section("enabled: yes please\n", "enabled");

    assertThat(section.bool("enabled", true)).isTrue();
    assertThat(reported()).singleElement().asString().contains("unit.enabled: must be a boolean");
  }

  @Test
  void theShapeIsDumpOrTailAndIncrementalIsReadAsTail() throws Exception {
    assertThat(section("shape: dump\n", "shape").shape("shape")).isEqualTo(Shape.DUMP);
    assertThat(section("shape: tail\n", "shape").shape("shape")).isEqualTo(Shape.TAIL);
    assertThat(section("shape: incremental\n", "shape").shape("shape")).isEqualTo(Shape.TAIL);
    assertThat(problems.isEmpty()).isTrue();
  }

  @Test
  void anUnknownOrMissingShapeIsReported() throws Exception {
    section("shape: snapshot\n", "shape").shape("shape");
    section("other: 1\n", "other").shape("shape");

    assertThat(reported())
        .containsExactlyInAnyOrder(
            "c.yaml:1:8: unit.shape: unknown shape 'snapshot'; one of dump, tail",
            "c.yaml:1:1: unit.shape: is required");
  }

  @Test
  void bindEachReportsAUnitNameSeenTwiceAtTheSecond() throws Exception {
    Section connection = section("units:\n  - unit: a\n  - unit: b\n  - unit: a\n", "units");

    List<String> bound =
        UnitNames.bindEach(
            connection,
            "units",
            "unit",
            List.of("unit"),
            "connection",
            unit -> unit.requiredName("unit"),
            name -> name);

    assertThat(bound).containsExactly("a", "b", "a");
    assertThat(reported())
        .containsExactly(
            "c.yaml:4:11: unit.units[2].unit: duplicate unit name 'a' in this connection (first at"
                + " c.yaml:2:11)");
  }

  @Test
  void anEmptyListOfUnitsIsReported() throws Exception {
    Section connection = section("units: []\n", "units");

    assertThat(connection.requiredSections("units", "unit", List.of("unit"))).isEmpty();
    assertThat(reported()).singleElement().asString().endsWith("units: needs at least one unit");
  }
}
