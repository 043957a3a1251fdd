package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exact bytes a tailed line becomes: what the consumer reads is what these tests hold. */
class TailRecordsTest {

  private static String landed(String line, String path, long offset) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    TailRecords.Decoded decoded =
        new TailRecords(TailDecoder.NDJSON).decode(bytes, bytes.length, path, offset);
    assertThat(decoded).isInstanceOf(TailRecords.Record.class);
    return new String(((TailRecords.Record) decoded).record().bytes(), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1}|{\"a\":1,\"_file_path\":\"/l/app.log\",\"_file_offset\":0}",
        "  {\"a\":1 }\r|{\"a\":1 ,\"_file_path\":\"/l/app.log\",\"_file_offset\":0}",
        "{}|{\"_file_path\":\"/l/app.log\",\"_file_offset\":0}",
        "{ }|{ \"_file_path\":\"/l/app.log\",\"_file_offset\":0}",
        "{\"msg\":\"é ✓\",\"n\":[1,{\"x\":null}]}|"
            + "{\"msg\":\"é ✓\",\"n\":[1,{\"x\":null}],\"_file_path\":\"/l/app.log\",\"_file_offset\":0}"
      })
  void anObjectLineGetsThePathAndOffsetBeforeItsClosingBrace(String line, String expected) {
    assertThat(landed(line, "/l/app.log", 0)).isEqualTo(expected);
  }

  @Test
  void offsetsOfEveryLengthAreWrittenInFull() {
    TailRecords records = new TailRecords(TailDecoder.NDJSON);
    byte[] line = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    for (long offset : new long[] {0, 9, 10, 99, 1_000_000_007L, Long.MAX_VALUE}) {
      TailRecords.Record record =
          (TailRecords.Record) records.decode(line, line.length, "/l/a.log", offset);
      assertThat(new String(record.record().bytes(), StandardCharsets.UTF_8))
          .isEqualTo("{\"a\":1,\"_file_path\":\"/l/a.log\",\"_file_offset\":" + offset + "}");
    }
  }

  @Test
  void aNewPathIsWrittenForTheLinesOfTheNextFile() {
    TailRecords records = new TailRecords(TailDecoder.NDJSON);
    byte[] line = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    records.decode(line, line.length, "/l/a.log", 5);
    TailRecords.Record record =
        (TailRecords.Record) records.decode(line, line.length, "/l/\"b\".log", 6);
    assertThat(new String(record.record().bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":1,\"_file_path\":\"/l/\\\"b\\\".log\",\"_file_offset\":6}");
  }
}
