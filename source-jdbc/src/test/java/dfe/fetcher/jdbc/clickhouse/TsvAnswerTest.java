package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one class that decides whether a ClickHouse answer ended complete, alone: an exception
 * ClickHouse appends after {@code 200 OK} is never a row and never the end.
 */
class TsvAnswerTest {

  private static final String HEADER = "id\tname\nUInt64\tString\n";
  private static final String KILLED =
      "Code: 394, e.displayText() = DB::Exception: Query was cancelled, e.what() = DB::Exception\n";

  @Test
  void aCompleteAnswerHandsOverEveryRowAndEnds() throws Exception {
    assertThat(rows(HEADER + "1\tone\n2\ttwo\n")).containsExactly("1|one", "2|two");
  }

  @Test
  void anEmptyResultIsItsHeaderAlone() throws Exception {
    TsvAnswer answer = answer(HEADER);
    TsvAnswer.Header header = answer.header();
    assertThat(header.names()).containsExactly("id", "name");
    assertThat(header.types()).containsExactly("UInt64", "String");
    assertThat(answer.next()).isFalse();
  }

  @Test
  void anExceptionAfterTheRowsFailsTheAnswerAfterHandingOverTheRowsBeforeIt() throws Exception {
    TsvAnswer answer = answer(HEADER + "1\tone\n2\ttwo\n" + KILLED);
    answer.header();
    assertThat(answer.next()).isTrue();
    assertThat(answer.next()).isTrue();
    assertThatThrownBy(answer::next)
        .isInstanceOfSatisfying(
            TsvAnswer.BrokenAnswerException.class, e -> assertThat(e.fromServer()).isTrue())
        .hasMessageStartingWith("Code: 394, e.displayText() = DB::Exception: Query was cancelled");
  }

  @Test
  void inAOneColumnAnswerTheExceptionLineIsNoRow() throws Exception {
    TsvAnswer answer = answer("s\nString\nfirst\n" + KILLED);
    answer.header();
    assertThat(answer.next()).isTrue();
    assertThatThrownBy(answer::next).isInstanceOf(TsvAnswer.BrokenAnswerException.class);
  }

  @Test
  void anExceptionGluedToAPartialRowIsStillTheException() {
    assertThatThrownBy(() -> rows(HEADER + "1\tone\n2\ttw" + KILLED))
        .isInstanceOfSatisfying(
            TsvAnswer.BrokenAnswerException.class, e -> assertThat(e.fromServer()).isTrue())
        .hasMessageStartingWith("Code: 394");
  }

  @Test
  void aStreamThatEndsInsideALineBrokeOff() {
    assertThatThrownBy(() -> rows(HEADER + "1\tone\n2\ttw"))
        .isInstanceOfSatisfying(
            TsvAnswer.BrokenAnswerException.class, e -> assertThat(e.fromServer()).isFalse())
        .hasMessage("the answer broke off inside a row");
  }

  @Test
  void aLineWithTheWrongNumberOfFieldsIsNoRow() {
    assertThatThrownBy(() -> rows(HEADER + "1\tone\textra\n2\ttwo\n"))
        .isInstanceOf(TsvAnswer.BrokenAnswerException.class)
        .hasMessage("a line of the answer is not a row of its 2 columns");
    assertThatThrownBy(() -> rows(HEADER + "1\n"))
        .isInstanceOf(TsvAnswer.BrokenAnswerException.class);
  }

  @Test
  void anErrorInsteadOfTheHeaderIsTheServersError() {
    assertThatThrownBy(() -> answer(KILLED).header())
        .isInstanceOfSatisfying(
            TsvAnswer.BrokenAnswerException.class, e -> assertThat(e.fromServer()).isTrue());
  }

  @Test
  void rowsLongerThanTheReadBufferArriveWhole() throws Exception {
    String longName = "x".repeat(200_000);
    assertThat(rows(HEADER + "1\t" + longName + "\n2\tb\n"))
        .containsExactly("1|" + longName, "2|b");
  }

  private static TsvAnswer answer(String text) {
    return new TsvAnswer(stream(text));
  }

  private static InputStream stream(String text) {
    // Small reads, so lines and the exception cross read boundaries.
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 7));
      }
    };
  }

  private static List<String> rows(String text) throws Exception {
    TsvAnswer answer = answer(text);
    answer.header();
    List<String> rows = new ArrayList<>();
    while (answer.next()) {
      byte[] line = answer.line();
      rows.add(
          new String(line, answer.start(0), answer.end(0) - answer.start(0), StandardCharsets.UTF_8)
              + "|"
              + new String(
                  line, answer.start(1), answer.end(1) - answer.start(1), StandardCharsets.UTF_8));
    }
    return rows;
  }
}
