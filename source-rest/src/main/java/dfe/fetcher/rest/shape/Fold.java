package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;
import java.util.List;

/**
 * Turns every row one listing landed (one key of a dump or a window, with its second stage's rows)
 * into the rows that land instead ({@code construct.fold}): a whole that no single row is, such as
 * one Go module's version documents as one row.
 *
 * <p>The contract a caller relies on: it is called once per listing, after the listing's last row
 * and only when the listing was read to its end (a listing cut short or failed folds nothing); it
 * gets the rows in the order they were landed, each a JSON object as shaped; it either hands on
 * every row of its result, each exact, or throws before handing on any of them when a row is not
 * what it reads. An empty listing may fold to no row. It keeps no state between calls.
 */
public interface Fold {

  /**
   * Folds {@code rows}.
   *
   * @param place the listing, for messages: the unit and the key
   * @throws SourceException naming {@code place}, the row's index and what is wrong, never a value
   */
  void fold(List<JsonNode> rows, String place, RowBuilder.Rows out)
      throws SourceException, InterruptedException;
}
