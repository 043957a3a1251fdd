package dfe.fetcher.jdbc.clickhouse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ClickHouse's exception text, made fit for an error message and a log: one line, in the form
 * {@code Code: N. DB::Exception: ...} whichever server wrote it (18.16 writes {@code Code: N,
 * e.displayText() = DB::Exception: ..., e.what() = DB::Exception}), and without the query's literal
 * values: a quoted literal ({@code 'secret'}) becomes {@code '…'}, and the query text a syntax
 * error quotes after its position is cut. What is left names the error, the table, the column, the
 * setting: what the operator fixes.
 */
final class ServerMessage {

  private static final Pattern OLD_FORM =
      Pattern.compile("^Code: (\\d+), e\\.displayText\\(\\) = (.*?)(?:, e\\.what\\(\\) = .*)?$");
  private static final Pattern QUOTED = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'");
  private static final Pattern SYNTAX_TAIL =
      Pattern.compile(
          "(failed at position \\d+(?: \\(line \\d+, col \\d+\\))?)(?:[^.]|\\.(?! Expected))*");
  private static final int MAX_CHARS = 1_000;

  private ServerMessage() {}

  /** The text of {@code body} (an error answer, or the exception line after a row) made safe. */
  static String of(String body) {
    String line = body.strip();
    int newline = line.indexOf('\n');
    if (newline >= 0) {
      line = line.substring(0, newline).strip();
    }
    Matcher old = OLD_FORM.matcher(line);
    if (old.matches()) {
      line = "Code: " + old.group(1) + ". " + old.group(2);
    }
    line = QUOTED.matcher(line).replaceAll("'…'");
    line = SYNTAX_TAIL.matcher(line).replaceAll("$1: …");
    if (line.length() > MAX_CHARS) {
      line = line.substring(0, MAX_CHARS) + "…";
    }
    return line;
  }
}
