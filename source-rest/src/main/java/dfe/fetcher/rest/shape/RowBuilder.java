package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;

/**
 * Turns one element a decoder read (an array element, a line, a document) into the rows it stands
 * for ({@code rows.builder}): one, several or none.
 *
 * <p>The contract a caller relies on: a builder either hands on every row of the element, each
 * exact (numbers and strings copied as the element holds them, never through a double), or throws
 * before handing on any of them when the element is not the shape it reads (a cell too many, arrays
 * of different lengths, base64 that is not). It never hands on a row it had to guess. It keeps no
 * state between elements, so one instance serves every page of every tick.
 */
public interface RowBuilder {

  /** Where a builder's rows go, in order. */
  @FunctionalInterface
  interface Rows {
    void accept(JsonNode row) throws SourceException, InterruptedException;
  }

  /**
   * Builds the rows of {@code element}.
   *
   * @param place the element, for messages: the page and the row's index
   * @throws SourceException naming {@code place} and what is wrong, never a value
   */
  void build(JsonNode element, String place, Rows rows)
      throws SourceException, InterruptedException;
}
