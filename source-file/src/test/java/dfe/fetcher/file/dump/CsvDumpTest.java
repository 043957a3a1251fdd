package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.markOf;
import static dfe.fetcher.file.dump.RecordingSink.begin;
import static dfe.fetcher.file.dump.RecordingSink.end;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.SourceException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV files: a header row, then one JSON object of strings per row. */
class CsvDumpTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void eachRowIsAnObjectOfStringsKeyedByTheHeaderInHeaderOrder() throws Exception {
    data.write("data/a.csv", "zeta,alpha,mid\n1,true,\n", 1);

    assertThat(data.readAll("data/*.csv").records())
        .containsExactly("{\"zeta\":\"1\",\"alpha\":\"true\",\"mid\":\"\"}");
  }

  @Test
  void quotedFieldsKeepCommasQuotesAndNewlines() throws Exception {
    data.write("data/a.csv", "id,note\n1,\"a, \"\"quoted\"\"\nnote\"\n", 1);

    assertThat(data.readAll("data/*.csv").records())
        .containsExactly("{\"id\":\"1\",\"note\":\"a, \\\"quoted\\\"\\nnote\"}");
  }

  @Test
  void aRowsOriginIsTheLineItStartsOn() throws Exception {
    Path file = data.write("data/a.csv", "id,note\n1,\"two\nlines\"\n\n2,x\n", 1);

    assertThat(data.readAll("data/*.csv").origins()).containsExactly(file + ":2", file + ":5");
  }

  @Test
  void aRowWithFewerFieldsLeavesTheMissingColumnsOut() throws Exception {
    data.write("data/a.csv", "a,b,c\n1\n", 1);

    assertThat(data.readAll("data/*.csv").records()).containsExactly("{\"a\":\"1\"}");
  }

  @Test
  void aRowWithMoreFieldsThanTheHeaderIsRefused() {
    Path file = data.write("data/a.csv", "a,b\n1,2\n1,2,3\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.csv"))
        .isInstanceOf(SourceException.class)
        .hasMessage(file + ":3: the row has 3 fields, the header has 2");
  }

  @Test
  void aHeaderNamingAColumnTwiceIsRefused() {
    Path file = data.write("data/a.csv", "id,name,id\n1,x,2\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.csv"))
        .isInstanceOf(SourceException.class)
        .hasMessage(file + ":1: the header names the column \"id\" more than once");
  }

  @Test
  void aFileWithOnlyAHeaderIsAPartWithoutRows() throws Exception {
    Path file = data.write("data/a.csv", "id,name\n", 1);

    assertThat(data.readAll("data/*.csv").events).containsExactly(begin(), end(markOf(file)));
  }

  @Test
  void anEmptyFileIsAPartWithoutRows() throws Exception {
    Path file = data.write("data/a.csv", "", 1);

    assertThat(data.readAll("data/*.csv").events).containsExactly(begin(), end(markOf(file)));
  }

  @Test
  void anUnclosedQuoteIsRefusedNamingTheFile() {
    Path file = data.write("data/a.csv", "id,note\n1,ok\n2,\"never closed\n", 1);

    assertThatThrownBy(() -> data.readAll("data/*.csv"))
        .isInstanceOf(SourceException.class)
        .hasMessageStartingWith(file + ":")
        .hasMessageContaining(": not valid CSV: ");
  }
}
