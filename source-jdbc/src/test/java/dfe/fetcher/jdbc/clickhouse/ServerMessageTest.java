package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** ClickHouse's error text as an error may show it: one form, no literal of the query. */
class ServerMessageTest {

  @Test
  void the1816FormBecomesCodeDotException() {
    assertThat(
            ServerMessage.of(
                "Code: 60, e.displayText() = DB::Exception: Table d.nope doesn't exist., e.what()"
                    + " = DB::Exception\n"))
        .isEqualTo("Code: 60. DB::Exception: Table d.nope doesn't exist.");
  }

  @Test
  void quotedLiteralsAreHidden() {
    assertThat(
            ServerMessage.of(
                "Code: 6, e.displayText() = DB::Exception: Cannot parse string 'secret-value' as"
                    + " Date: syntax error at position 8 (parsed just 'secret-v'), e.what() ="
                    + " DB::Exception"))
        .isEqualTo(
            "Code: 6. DB::Exception: Cannot parse string '…' as Date: syntax error at position 8"
                + " (parsed just '…')")
        .doesNotContain("secret");
    assertThat(ServerMessage.of("Code: 1. DB::Exception: it\\'s 'a \\' quote' here"))
        .doesNotContain("quote");
  }

  @Test
  void theQueryTextASyntaxErrorQuotesIsCut() {
    assertThat(
            ServerMessage.of(
                "Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position 62:"
                    + " 424242 AND x = 7. Expected one of: AS, OR, e.what() = DB::Exception"))
        .isEqualTo(
            "Code: 62. DB::Exception: Syntax error: failed at position 62: …. Expected one of: AS,"
                + " OR")
        .doesNotContain("424242");
    assertThat(
            ServerMessage.of(
                "Code: 62. DB::Exception: Syntax error: failed at position 9 ('x') (line 1, col"
                    + " 9): 424242 FROM t. Expected one of: token. (SYNTAX_ERROR) (version"
                    + " 23.8)"))
        .doesNotContain("424242")
        .contains("failed at position 9")
        .contains("Expected one of: token");
  }

  @Test
  void onlyTheFirstLineIsKept() {
    assertThat(ServerMessage.of("Code: 1. DB::Exception: first\nstack trace line"))
        .isEqualTo("Code: 1. DB::Exception: first");
  }
}
