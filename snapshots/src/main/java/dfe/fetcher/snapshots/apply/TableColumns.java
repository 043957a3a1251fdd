package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.RowIdentity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The columns of a target table: the key columns ({@code --key}, in order), the typed columns
 * {@code --columns} maps from pointers, and {@code record}, the whole record as {@code jsonb}.
 *
 * <p>A key pointer's column is named after the pointer ({@code /id} is {@code id}, {@code /site/id}
 * is {@code site_id}) and typed {@code text}, unless {@code --columns} maps that pointer. A
 * column's value is {@code (record #>> '{path}')::TYPE}: the JSON text of a string without its
 * quotes, of a number or boolean as written, cast to the column's type.
 *
 * @param identity the row identity the key pointers make
 * @param columns every column but {@code record}, key columns first
 */
public record TableColumns(RowIdentity identity, List<Column> columns) {

  /** The column holding the whole record. */
  public static final String RECORD = "record";

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
  private static final Pattern TYPE =
      Pattern.compile("[a-z][a-z0-9_ ]*(\\(\\s*\\d+\\s*(,\\s*\\d+\\s*)?\\))?(\\[\\])?");

  /**
   * One column taken from the record.
   *
   * @param pointer the JSON pointer of its value
   * @param name the column's name
   * @param type its SQL type
   * @param key whether it is part of the primary key
   */
  public record Column(String pointer, String name, String type, boolean key) {

    /** The SQL expression of this column's value in a record column named {@code record}. */
    String valueOf(String record) {
      return sourceOf(pointer, record) + "::" + type;
    }
  }

  /**
   * Columns from {@code --key} pointers and {@code --columns} values, each one or more {@code
   * POINTER=NAME[:TYPE]} separated by commas; a comma inside parentheses belongs to the type
   * ({@code /price=price:numeric(10,2)}).
   *
   * @throws IllegalArgumentException naming the option and value that is wrong
   */
  public static TableColumns of(List<String> keyPointers, List<String> columnValues) {
    RowIdentity identity = RowIdentity.of(keyPointers);
    Map<String, Column> mapped = new LinkedHashMap<>();
    List<String> columnSpecs = new ArrayList<>();
    for (String value : columnValues) {
      columnSpecs.addAll(specsOf(value));
    }
    for (String spec : columnSpecs) {
      int equals = spec.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(
            "--columns " + spec + ": expected POINTER=NAME[:TYPE], e.g. /id=id:bigint");
      }
      String pointer = spec.substring(0, equals);
      String rest = spec.substring(equals + 1);
      int colon = rest.indexOf(':');
      String name = colon < 0 ? rest : rest.substring(0, colon);
      String type = colon < 0 ? "text" : rest.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
      RowIdentity.of(List.of(pointer)); // checks the pointer
      checkName("--columns " + spec, name);
      if (!TYPE.matcher(type).matches()) {
        throw new IllegalArgumentException(
            "--columns " + spec + ": \"" + type + "\" is not a SQL type name such as bigint");
      }
      mapped.put(pointer, new Column(pointer, name, type, keyPointers.contains(pointer)));
    }
    List<Column> columns = new ArrayList<>();
    for (String pointer : keyPointers) {
      Column column = mapped.remove(pointer);
      if (column == null) {
        column = new Column(pointer, nameOf(pointer), "text", true);
        checkName("--key " + pointer, column.name());
      }
      columns.add(column);
    }
    columns.addAll(mapped.values());
    List<String> names = new ArrayList<>();
    for (Column column : columns) {
      String lower = column.name().toLowerCase(Locale.ROOT);
      if (names.contains(lower) || lower.equals(RECORD)) {
        throw new IllegalArgumentException(
            "column " + column.name() + " (from " + column.pointer() + ") is named twice");
      }
      names.add(lower);
    }
    return new TableColumns(identity, List.copyOf(columns));
  }

  /** {@code value} cut at each comma outside parentheses. */
  static List<String> specsOf(String value) {
    List<String> specs = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      } else if (c == ',' && depth == 0) {
        specs.add(value.substring(start, i));
        start = i + 1;
      }
    }
    specs.add(value.substring(start));
    return specs;
  }

  List<Column> keyColumns() {
    return columns.stream().filter(Column::key).toList();
  }

  /** The SQL expression of the text at {@code pointer} in a record column named {@code record}. */
  static String sourceOf(String pointer, String record) {
    return "(" + record + " #>> " + SqlNames.literal(path(pointer)) + ")";
  }

  /** {@code /site/id} as {@code site_id}. */
  static String nameOf(String pointer) {
    return pointer.substring(1).replace("/", "_").replace("~1", "_").replace("~0", "_");
  }

  /** The Postgres path literal of a pointer: {@code /site/id} is {@code {site,id}}. */
  static String path(String pointer) {
    StringBuilder path = new StringBuilder("{");
    String[] tokens = pointer.substring(1).split("/", -1);
    for (int i = 0; i < tokens.length; i++) {
      String token = tokens[i].replace("~1", "/").replace("~0", "~");
      if (i > 0) {
        path.append(',');
      }
      path.append('"').append(token.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
    return path.append('}').toString();
  }

  private static void checkName(String option, String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          option + ": \"" + name + "\" is not a column name (letters, digits, _; 63 at most)");
    }
  }
}
