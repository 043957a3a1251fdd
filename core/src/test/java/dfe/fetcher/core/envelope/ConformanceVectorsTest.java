package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector of shared/conformance/reassembler, fed to the Reassembler line by line. */
class ConformanceVectorsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Path> vectors() throws IOException, URISyntaxException {
    Path directory =
        Path.of(ConformanceVectorsTest.class.getResource("/conformance/reassembler").toURI());
    List<Path> vectors;
    try (Stream<Path> files = Files.list(directory)) {
      vectors =
          files.filter(file -> file.getFileName().toString().endsWith(".ndjson")).sorted().toList();
    }
    assertThat(vectors).hasSizeGreaterThanOrEqualTo(20);
    return vectors.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void theReassemblerReportsWhatTheVectorExpects(Path vector) throws IOException {
    String name = vector.getFileName().toString().replace(".ndjson", "");
    JsonNode expected = JSON.readTree(vector.resolveSibling(name + ".expected.json").toFile());
    Reassembler reassembler = Reassembler.retainingRecords();
    int invalid = 0;
    for (String line : Files.readAllLines(vector, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      try {
        reassembler.accept(line.getBytes(StandardCharsets.UTF_8));
      } catch (InvalidFrameException e) {
        invalid++;
      }
    }

    assertThat(invalid).as("invalid lines").isEqualTo(expected.get("invalid_lines").asInt());
    ArrayNode reports = JsonNodeFactory.instance.arrayNode();
    ObjectNode rows = JsonNodeFactory.instance.objectNode();
    for (SnapshotReport report : reassembler.reports()) {
      reports.add(asJson(report));
      if (report.status() == SnapshotStatus.COMPLETE) {
        ArrayNode records = rows.putArray(report.snapshotId());
        for (RawRecord record : reassembler.rows(report.snapshotId())) {
          records.add(JSON.readTree(record.bytes()));
        }
      }
    }
    // Reparsed so numbers compare by value, not by the node type that built them.
    assertThat(JSON.readTree(reports.toString())).isEqualTo(expected.get("snapshots"));
    assertThat(JSON.readTree(rows.toString())).isEqualTo(expected.get("rows"));
  }

  private static ObjectNode asJson(SnapshotReport report) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("snapshot_id", report.snapshotId());
    node.put("store", report.store());
    node.put("status", report.status().wireName());
    if (report.rowCount().isPresent()) {
      node.put("row_count", report.rowCount().getAsLong());
    } else {
      node.putNull("row_count");
    }
    node.put("rows", report.rows());
    node.put("stubs", report.stubs());
    node.put("begun", report.begun());
    ArrayNode missing = node.putArray("missing");
    report.missing().forEach(missing::add);
    return node;
  }
}
