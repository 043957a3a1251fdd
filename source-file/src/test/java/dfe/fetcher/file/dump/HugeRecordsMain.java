package dfe.fetcher.file.dump;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import dfe.fetcher.core.row.RowSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads every file under {@code args[0]} with the default oversize policy and {@code row_key /id},
 * printing one line per event (never a record's content beyond its key): run by {@link
 * HugeRecordsTest} in a JVM with a small heap.
 */
public final class HugeRecordsMain {

  private HugeRecordsMain() {}

  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args[0]);
    FileDumpSource source =
        new FileDumpSource(
            new FileDumpSpec(List.of("*.*"), directory, Decoder.AUTO),
            DataFiles.CLOCK,
            OversizePolicy.DEFAULT,
            Optional.of(RowKey.at("/id")));
    source.read(
        Optional.empty(),
        new RowSink() {
          @Override
          public void beginPart(OptionalLong total) {}

          @Override
          public void row(Row row) {
            String origin = Path.of(row.origin()).getFileName().toString();
            if (row.content() instanceof Row.NotKept notKept) {
              System.out.println(
                  "not-kept "
                      + origin
                      + " bytes="
                      + notKept.bytes()
                      + " key="
                      + notKept.rowKey().orElse("-")
                      + " dlq="
                      + notKept.dlqCopy().length);
            } else {
              System.out.println("row " + origin + " bytes=" + row.record().length());
            }
          }

          @Override
          public void endPart(Optional<Mark> position) {
            System.out.println("end");
          }

          @Override
          public void abortPart(String reason) {}

          @Override
          public void advance(Mark mark) {}
        },
        new Cancellation());
  }
}
