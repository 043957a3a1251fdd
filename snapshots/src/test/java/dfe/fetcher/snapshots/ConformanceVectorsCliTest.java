package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every vector of shared/conformance/reassembler (copied into core's test resources) through {@code
 * snapshots verify --format json} and {@code snapshots rows}.
 */
class ConformanceVectorsCliTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path VECTORS =
      Path.of("..", "core", "src", "test", "resources")
          .resolve(Path.of("conformance", "reassembler"));

  static Stream<Path> vectors() throws IOException {
    List<Path> vectors;
    try (Stream<Path> files = Files.list(VECTORS)) {
      vectors =
          files.filter(file -> file.getFileName().toString().endsWith(".ndjson")).sorted().toList();
    }
    assertThat(vectors).hasSizeGreaterThanOrEqualTo(20);
    return vectors.stream();
  }

  private static JsonNode expected(Path vector) throws IOException {
    String name = vector.getFileName().toString().replace(".ndjson", ".expected.json");
    return JSON.readTree(vector.resolveSibling(name).toFile());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void verifyPrintsTheExpectedReportAndExitCode(Path vector) throws IOException {
    JsonNode expected = expected(vector);
    CommandRun run = CommandRun.of("snapshots", "verify", "--format", "json", vector.toString());

    assertThat(run.exitCode()).isEqualTo(expected.get("exit_code").asInt());
    ArrayNode reports = JSON.createArrayNode();
    for (String line : run.outLines()) {
      reports.add(JSON.readTree(line));
    }
    assertThat(reports).isEqualTo(expected.get("snapshots"));
    Pattern located = Pattern.compile(Pattern.quote(vector.toString()) + ":\\d+: .+");
    assertThat(run.errLines())
        .hasSize(expected.get("invalid_lines").asInt())
        .allSatisfy(line -> assertThat(line).matches(located));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void rowsPrintsTheRecordsOfEachCompleteSnapshotInSeqOrder(Path vector) throws IOException {
    JsonNode expectedRows = expected(vector).get("rows");
    for (Iterator<Map.Entry<String, JsonNode>> it = expectedRows.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> snapshot = it.next();
      CommandRun run =
          CommandRun.of("snapshots", "rows", "--snapshot", snapshot.getKey(), vector.toString());

      assertThat(run.exitCode()).isIn(0, 2);
      ArrayNode rows = JSON.createArrayNode();
      for (String line : run.outLines()) {
        rows.add(JSON.readTree(line));
      }
      assertThat(rows).as(snapshot.getKey()).isEqualTo(snapshot.getValue());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void rowsOfASnapshotThatIsNotCompleteExitThreeAndPrintNothing(Path vector) throws IOException {
    JsonNode expected = expected(vector);
    for (JsonNode report : expected.get("snapshots")) {
      if (report.get("status").asText().equals("complete")) {
        continue;
      }
      String id = report.get("snapshot_id").asText();
      CommandRun run = CommandRun.of("snapshots", "rows", "--snapshot", id, vector.toString());

      assertThat(run.exitCode()).isEqualTo(3);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).contains(id).contains(report.get("status").asText());
    }
  }
}
