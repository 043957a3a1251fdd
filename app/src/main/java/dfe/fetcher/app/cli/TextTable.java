package dfe.fetcher.app.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Columns padded to their widest cell, two spaces apart, the last one left unpadded. */
final class TextTable {

  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(List.of(header));
  }

  void add(String... cells) {
    rows.add(List.of(cells));
  }

  void print(PrintStream out) {
    lines().forEach(out::println);
  }

  /** The table's lines, header first. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row.get(i));
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
        }
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }
}
