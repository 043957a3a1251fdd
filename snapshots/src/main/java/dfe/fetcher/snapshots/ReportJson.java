package dfe.fetcher.snapshots;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.core.envelope.SnapshotReport;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON form of {@code snapshots verify}: one object per snapshot and line, sorted by {@code
 * snapshot_id}, its fields always in the same order, which scripts may rely on.
 */
final class ReportJson {

  private static final JsonFactory JSON = new JsonFactory();

  private ReportJson() {}

  static void write(List<SnapshotReport> reports, PrintStream out) {
    try {
      for (SnapshotReport report : reports) {
        JsonGenerator json = JSON.createGenerator(out);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.writeStartObject();
        json.writeStringField("snapshot_id", report.snapshotId());
        json.writeStringField("store", report.store());
        json.writeStringField("status", report.status().wireName());
        if (report.rowCount().isPresent()) {
          json.writeNumberField("row_count", report.rowCount().getAsLong());
        } else {
          json.writeNullField("row_count");
        }
        json.writeNumberField("rows", report.rows());
        json.writeNumberField("stubs", report.stubs());
        json.writeBooleanField("begun", report.begun());
        json.writeArrayFieldStart("missing");
        for (long seq : report.missing()) {
          json.writeNumber(seq);
        }
        json.writeEndArray();
        json.writeEndObject();
        json.close();
        out.write('\n');
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("writing the report failed", e);
    }
  }
}
