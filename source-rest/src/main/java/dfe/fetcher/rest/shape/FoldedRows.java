package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of one listing held for its {@link Fold}: at most {@code maxBytes} of them together (a
 * listing holding more fails, naming the bound, before the next row is held), folded once the
 * listing was read to its end. Not for use by two threads.
 */
public final class FoldedRows {

  private final Fold fold;
  private final long maxBytes;
  private final List<JsonNode> held = new ArrayList<>();
  private long bytes;

  FoldedRows(Fold fold, long maxBytes) {
    this.fold = fold;
    this.maxBytes = maxBytes;
  }

  /** Holds {@code row}, landed at {@code origin}. */
  public void add(RawRecord row, String origin) throws SourceException {
    bytes += row.bytes().length;
    if (bytes > maxBytes) {
      throw new SourceException(
          origin
              + ": the rows construct.fold holds for one listing are longer than max_page_bytes "
              + maxBytes);
    }
    try {
      held.add(ShapedJson.read(row.bytes()));
    } catch (JsonProcessingException e) {
      throw new SourceException(origin + " is not valid JSON (construct.fold)");
    }
  }

  /**
   * Folds what is held and hands on the result, then holds nothing.
   *
   * @param place the listing, for messages
   */
  public void fold(String place, RowShaper.Rows out) throws SourceException, InterruptedException {
    List<JsonNode> rows = List.copyOf(held);
    held.clear();
    bytes = 0;
    fold.fold(
        rows,
        place,
        row -> {
          byte[] json;
          try {
            json = ShapedJson.write(row);
          } catch (JsonProcessingException e) {
            throw new SourceException(place + ": the folded row cannot be written as JSON", e);
          }
          if (json.length > maxBytes) {
            throw new SourceException(
                place + ": the folded row is longer than max_page_bytes " + maxBytes);
          }
          out.accept(RawRecord.of(json));
        });
  }
}
