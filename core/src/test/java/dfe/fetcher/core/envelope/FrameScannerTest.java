package dfe.fetcher.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class FrameScannerTest {

  static Stream<Path> vectors() throws IOException, URISyntaxException {
    return ConformanceVectorsTest.vectors();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everyConformanceLineParsesAsTheTokenPathParsesIt(Path vector) throws IOException {
    for (String text : Files.readAllLines(vector, StandardCharsets.UTF_8)) {
      byte[] line = text.getBytes(StandardCharsets.UTF_8);
      FrameScannerProperties.Outcome scanned =
          FrameScannerProperties.Outcome.of(() -> new FrameParser().parse(line));
      FrameScannerProperties.Outcome tokens =
          FrameScannerProperties.Outcome.of(
              () -> new FrameParser().parseTokens(line, 0, line.length));

      assertThat(scanned).as(text).isEqualTo(tokens);
      if (scanned.frame() instanceof Frame.Row row) {
        assertThat(row.record().digest())
            .as(text)
            .isEqualTo(CanonicalDigest.of(row.record().bytes()));
      }
    }
  }

  @Test
  void theConformanceVectorsRowsAreDigestedByTheScannerItself()
      throws IOException, URISyntaxException {
    int scannedRows = 0;
    for (Path vector : vectors().toList()) {
      for (String text : Files.readAllLines(vector, StandardCharsets.UTF_8)) {
        byte[] line = text.getBytes(StandardCharsets.UTF_8);
        FrameFields fields = new FrameFields();
        if (new FrameScanner(fields).scan(line, 0, line.length) && fields.record != null) {
          assertThat(fields.record.digest()).isEqualTo(CanonicalDigest.of(fields.record.bytes()));
          scannedRows++;
        }
      }
    }
    assertThat(scannedRows).isGreaterThan(100);
  }

  @Test
  void linesTheWriterWritesAreReadByTheScanner() {
    SnapshotWriter writer = Frames.writer("inventory.hosts");
    List<Frame> frames =
        List.of(
            writer.begin(),
            writer.row(
                RawRecord.of("{\"id\":\"123\",\"alive\":true,\"n\":123,\"name\":\"host-é\"}")),
            writer.end());
    for (Frame frame : frames) {
      byte[] line = FrameCodec.encode(frame);
      assertThat(new FrameScanner(new FrameFields()).scan(line, 0, line.length))
          .as(new String(line, StandardCharsets.UTF_8))
          .isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"\\ud83d\\ude00 and 😀\"",
        "\"\\uD83D\\uDE00\"",
        "\"\\u00e9 é \\u20ac €\"",
        "{\"b\":[1,2.50,-0,0e5,1E+2],\"a\":{\"\\u0061\":null}}",
        "12345678901234567890.12345678901234567890e-3",
        "-9223372036854775808",
        "9223372036854775808",
        "1e9999",
        "[\"\\b\\f\\n\\r\\t\\/\\\\\\\"\"]"
      })
  void hardValuesAreScannedToCanonicalDigests(String value) {
    assertThat(FrameScannerProperties.scannedRecord(value).digest())
        .isEqualTo(CanonicalDigest.of(value.getBytes(StandardCharsets.UTF_8)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1e99999",
        "01",
        "1.",
        "-",
        "\"\\x\"",
        "\"\\u12\"",
        "[1,]",
        "{\"a\" 1}",
        "tru",
        "NaN",
        "\"\u0001\"",
      })
  void whatTheScannerIsUnsureOfIsLeftToTheTokenPath(String value) {
    assertLeftToTheTokenPath(value);
  }

  @Test
  void numbersLongerThanTheScannerReadsAreLeftToTheTokenPath() {
    assertLeftToTheTokenPath("1" + "0".repeat(250));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"C080", "E08080", "EDA080", "F08080", "F4908080", "F5808080", "80", "C3", "E282"})
  void malformedOrOverlongUtf8IsLeftToTheTokenPath(String hex) {
    byte[] head = (FrameScannerProperties.ROW_HEAD + "\"a").getBytes(StandardCharsets.UTF_8);
    byte[] bad = java.util.HexFormat.of().parseHex(hex);
    byte[] tail = "b\"}".getBytes(StandardCharsets.UTF_8);
    byte[] line = new byte[head.length + bad.length + tail.length];
    System.arraycopy(head, 0, line, 0, head.length);
    System.arraycopy(bad, 0, line, head.length, bad.length);
    System.arraycopy(tail, 0, line, head.length + bad.length, tail.length);

    assertLeftToTheTokenPath(line);
  }

  private static void assertLeftToTheTokenPath(String value) {
    assertLeftToTheTokenPath(
        (FrameScannerProperties.ROW_HEAD + value + "}").getBytes(StandardCharsets.UTF_8));
  }

  private static void assertLeftToTheTokenPath(byte[] line) {

    assertThat(new FrameScanner(new FrameFields()).scan(line, 0, line.length)).isFalse();
    assertThat(FrameScannerProperties.Outcome.of(() -> new FrameParser().parse(line)))
        .isEqualTo(
            FrameScannerProperties.Outcome.of(
                () -> new FrameParser().parseTokens(line, 0, line.length)));
  }

  @Test
  void headStringsWithEscapesAreLeftToTheTokenPathAndStillParse() throws Exception {
    String text =
        FrameScannerProperties.ROW_HEAD.replace("inventory.hosts", "inv\\u0065ntory") + "1}";
    byte[] line = text.getBytes(StandardCharsets.UTF_8);

    assertThat(new FrameScanner(new FrameFields()).scan(line, 0, line.length)).isFalse();
    assertThat(new FrameParser().parse(line).head().store()).isEqualTo("inventory");
  }
}
