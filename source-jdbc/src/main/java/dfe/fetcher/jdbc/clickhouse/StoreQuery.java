package dfe.fetcher.jdbc.clickhouse;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.Map;
import java.util.UUID;

/**
 * One query of one store's tick, from request to the last row: sent with a query id of its own and
 * the store's settings, read as {@code TabSeparatedWithNamesAndTypes}, its stream registered with
 * the tick's cancellation (a stop kills the query and closes the stream). Every way it can fail
 * becomes a {@link SourceException} naming the store and what the query was for, with ClickHouse's
 * own text made safe ({@link ServerMessage}); once the tick is cancelled, every failure is an
 * {@link InterruptedException} instead, so a stopped dump is never mistaken for a broken one. A
 * query whose answer is not read to its end, for whatever reason (the sink threw), is killed.
 */
final class StoreQuery {

  static final String FORMAT = "\nFORMAT TabSeparatedWithNamesAndTypes";

  /** What reads the answer: its columns are typed, the rows are next. */
  @FunctionalInterface
  interface Reader<T> {
    T read(AnswerColumns columns, TsvAnswer answer)
        throws SourceException,
            InterruptedException,
            IOException,
            TsvAnswer.BrokenAnswerException,
            ClickHouseType.BadValueException;
  }

  private StoreQuery() {}

  /**
   * Runs {@code sql} (without its FORMAT clause) and hands the answer to {@code reader}.
   *
   * @param store {@code <connection>.<unit>}, for messages and the query id
   * @param purpose what the query was for, e.g. {@code the dump query failed}
   */
  static <T> T run(
      ClickHouseHttp http,
      String store,
      String purpose,
      String sql,
      Map<String, String> settings,
      ZoneId serverZone,
      Cancellation cancellation,
      Reader<T> reader)
      throws SourceException, InterruptedException {
    cancellation.throwIfCancelled();
    String queryId = queryId(store);
    try (InputStream stream = http.query(sql + FORMAT, queryId, settings, cancellation);
        Cancellation.Registration ignored =
            cancellation.onCancel(
                () -> {
                  http.kill(queryId);
                  closeQuietly(stream);
                })) {
      TsvAnswer answer = new TsvAnswer(stream);
      boolean readToTheEnd = false;
      T result;
      try {
        AnswerColumns columns;
        try {
          columns = AnswerColumns.of(answer.header(), serverZone);
        } catch (AnswerColumns.UnusableColumnsException e) {
          throw new SourceException(store + ": " + e.getMessage());
        }
        result = reader.read(columns, answer);
        readToTheEnd = true;
      } finally {
        if (!readToTheEnd) {
          // The answer is abandoned (the sink failed, a type or value was bad, the tick
          // stopped): 18.16
          // would go on running the query for a client that went away, and closing the stream
          // waits for the answer's end. Kill it first.
          http.kill(queryId);
        }
      }
      cancellation.throwIfCancelled();
      return result;
    } catch (TsvAnswer.BrokenAnswerException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          store
              + ": "
              + purpose
              + " (query "
              + queryId
              + "): "
              + (e.fromServer()
                  ? "ClickHouse: " + ServerMessage.of(e.getMessage())
                  : e.getMessage()));
    } catch (ClickHouseHttp.ServerErrorException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          store + ": " + purpose + " (query " + queryId + "): ClickHouse " + e.getMessage());
    } catch (ClickHouseType.BadValueException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          store + ": " + purpose + " (query " + queryId + "): " + e.getMessage());
    } catch (IOException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          store + ": " + purpose + " (query " + queryId + "): " + http.failure(e), e);
    }
  }

  /** {@code dfe-<connection>.<unit>-<uuid>}: unique, and names its store in system.processes. */
  static String queryId(String store) {
    StringBuilder id = new StringBuilder("dfe-");
    for (char c : store.toCharArray()) {
      id.append(Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_' ? c : '_');
    }
    return id.append('-').append(UUID.randomUUID()).toString();
  }

  private static void closeQuietly(InputStream stream) {
    try {
      stream.close();
    } catch (IOException | RuntimeException ignored) {
      // The tick is ending: the kill stops the query on the server.
    }
  }
}
