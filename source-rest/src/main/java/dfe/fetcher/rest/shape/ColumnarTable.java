package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code columnar_table}: a table written as its columns and its rows, as Azure Monitor's Log
 * Analytics query API answers ({@code {"name": "PrimaryResult", "columns": [{"name": "Category",
 * "type": "string"}, ...], "rows": [["Administrative", 20839], ...]}}), becomes one object per row,
 * each cell under its column's name, in column order. The cells are copied as they are (a {@code
 * dynamic} column's JSON text stays a string). A row with more or fewer cells than there are
 * columns, a column without a name, or two columns of one name fail the element: the cells could
 * not be put under the right names.
 */
final class ColumnarTable implements RowBuilder {

  @Override
  public void build(JsonNode table, String place, Rows out)
      throws SourceException, InterruptedException {
    if (!table.isObject()) {
      throw new SourceException(
          place + " is not a table (builder columnar_table reads an object with columns and rows)");
    }
    List<String> columns = columns(table.get("columns"), place);
    JsonNode rows = table.get("rows");
    if (rows == null || !rows.isArray()) {
      throw new SourceException(place + ": the table has no rows array (builder columnar_table)");
    }
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      if (!row.isArray()) {
        throw new SourceException(
            place + ": rows/" + i + " of the table is not an array (builder columnar_table)");
      }
      if (row.size() != columns.size()) {
        throw new SourceException(
            place
                + ": rows/"
                + i
                + " of the table has "
                + row.size()
                + " cells for "
                + columns.size()
                + " columns (builder columnar_table)");
      }
    }
    for (JsonNode row : rows) {
      ObjectNode object = ShapedJson.NODES.objectNode();
      for (int c = 0; c < columns.size(); c++) {
        object.set(columns.get(c), row.get(c));
      }
      out.accept(object);
    }
  }

  private static List<String> columns(JsonNode columns, String place) throws SourceException {
    if (columns == null || !columns.isArray()) {
      throw new SourceException(
          place + ": the table has no columns array (builder columnar_table)");
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < columns.size(); i++) {
      JsonNode name = columns.get(i).get("name");
      if (name == null || !name.isTextual()) {
        throw new SourceException(
            place + ": columns/" + i + " of the table has no name (builder columnar_table)");
      }
      if (!seen.add(name.textValue())) {
        throw new SourceException(
            place
                + ": columns/"
                + i
                + " of the table has the name of an earlier column (builder columnar_table)");
      }
      names.add(name.textValue());
    }
    return names;
  }
}
