package dfe.fetcher.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.FrameHead;
import dfe.fetcher.core.envelope.RawRecord;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RowFilterTest {

  private static final FrameHead HEAD =
      new FrameHead(
          "01a17720-ca00-73ab-95da-cb8f8c773fe6",
          "2026-05-01T12:00:00.123Z",
          "2026-05-01T12:00:00.123Z",
          "inventory.hosts",
          3);

  private static RowFilter filter(String expression) {
    try {
      return RowFilter.compile(expression);
    } catch (FilterCompileException e) {
      throw new AssertionError("expected " + expression + " to compile: " + e.getMessage(), e);
    }
  }

  private static byte[] frame(String record) {
    return FrameCodec.encode(new Frame.Row(HEAD, RawRecord.of(record)));
  }

  private static FilterVerdict evaluate(String expression, String json) {
    return filter(expression).evaluate(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String reason(FilterVerdict verdict) {
    assertThat(verdict).isInstanceOf(FilterVerdict.DropError.class);
    return ((FilterVerdict.DropError) verdict).reason();
  }

  // --- compiling ---

  @Test
  void aSyntaxErrorIsRefusedWithItsLineAndColumn() {
    assertThatThrownBy(() -> RowFilter.compile("record.alive ==\n  && true"))
        .isInstanceOf(FilterCompileException.class)
        .hasMessageContaining("filter:2:3")
        .hasMessageContaining("  && true");
  }

  @Test
  void anUnknownFunctionIsRefusedWithItsPosition() {
    assertThatThrownBy(() -> RowFilter.compile("record.alive && nosuch(record.n)"))
        .isInstanceOf(FilterCompileException.class)
        .hasMessageContaining("filter:1:23")
        .hasMessageContaining("undeclared reference to 'nosuch'");
  }

  @Test
  void aKnownFunctionWithTheWrongArgumentsIsRefused() {
    assertThatThrownBy(() -> RowFilter.compile("size(1, 2) > 0"))
        .isInstanceOf(FilterCompileException.class)
        .hasMessageContaining("filter:1:5")
        .hasMessageContaining("no matching overload");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 + 2", "'yes'", "record.n + 1", "[record.alive]"})
  void anExpressionThatCanNeverBeABoolIsRefused(String expression) {
    assertThatThrownBy(() -> RowFilter.compile(expression))
        .isInstanceOf(FilterCompileException.class)
        .hasMessageContaining("never a bool");
  }

  @Test
  void theRefusalKeepsTheExpressionAsWritten() {
    assertThatThrownBy(() -> RowFilter.compile("record.("))
        .isInstanceOfSatisfying(
            FilterCompileException.class, e -> assertThat(e.expression()).isEqualTo("record.("));
  }

  @Test
  void anEmptyExpressionIsRefused() {
    assertThatThrownBy(() -> RowFilter.compile("  "))
        .isInstanceOf(FilterCompileException.class)
        .hasMessageContaining("filter:1:");
  }

  @Test
  void theVariablesAreTheFreeIdentifiersOnly() {
    RowFilter filter =
        filter("record.tags.exists(t, t == 'x') && kind == 'row' && type(record.n) == int");
    assertThat(filter.variables()).containsExactlyInAnyOrder("record", "kind");
    assertThat(filter.expression())
        .isEqualTo("record.tags.exists(t, t == 'x') && kind == 'row' && type(record.n) == int");
  }

  // --- a dump's frame ---

  @Test
  void onAFrameTheRecordFieldIsReadUnderRecord() {
    RowFilter alive = filter("record.alive == true");
    assertThat(alive.evaluate(frame("{\"id\":1,\"alive\":true}"))).isEqualTo(FilterVerdict.PASS);
    assertThat(alive.evaluate(frame("{\"id\":2,\"alive\":false}"))).isEqualTo(FilterVerdict.DROP);
  }

  @Test
  void onAFrameTheHeadFieldsAreVariablesToo() {
    RowFilter filter = filter("kind == 'row' && store == 'inventory.hosts' && seq == 3");
    assertThat(filter.evaluate(frame("{}"))).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void aRecordWithoutTheFieldIsDroppedWithTheMissingKeyInTheReason() {
    FilterVerdict verdict = filter("record.alive == true").evaluate(frame("{\"id\":1}"));
    assertThat(reason(verdict)).contains("'alive'");
  }

  @Test
  void aPayloadWithoutTheVariableIsDroppedNamingIt() {
    FilterVerdict verdict = evaluate("record.alive == true", "{\"alive\":true}");
    assertThat(reason(verdict)).isEqualTo("no top-level field record in the payload");
  }

  @Test
  void aMissingFieldOnAnUntakenBranchDoesNotDrop() {
    assertThat(evaluate("kind == 'row' || record.alive", "{\"kind\":\"row\"}"))
        .isEqualTo(FilterVerdict.PASS);
  }

  // --- a tail record ---

  @Test
  void onARecordTheTopLevelKeysAreTheVariables() {
    RowFilter alive = filter("alive == true");
    assertThat(alive.evaluate(RawRecord.of("{\"alive\":true}"))).isEqualTo(FilterVerdict.PASS);
    assertThat(alive.evaluate(RawRecord.of("{\"alive\":false}"))).isEqualTo(FilterVerdict.DROP);
  }

  /**
   * The top-level values reach the expression as they are read: an integer is a CEL int (also
   * beside a double), a fraction a double, and a top-level null is a null, not a missing field.
   */
  @Test
  void topLevelValuesReachTheExpressionWithTheirTypes() {
    RawRecord record = RawRecord.of("{\"n\":1,\"x\":0.5,\"gone\":null,\"s\":\"a\"}");
    assertThat(filter("n == 1 && type(n) == int && n > 0.5").evaluate(record))
        .isEqualTo(FilterVerdict.PASS);
    assertThat(filter("x == 0.5 && type(x) == double").evaluate(record))
        .isEqualTo(FilterVerdict.PASS);
    assertThat(filter("gone == null").evaluate(record)).isEqualTo(FilterVerdict.PASS);
    assertThat(filter("s == 'a'").evaluate(record)).isEqualTo(FilterVerdict.PASS);
    assertThat(reason(filter("missing == 1").evaluate(record)))
        .isEqualTo("no top-level field missing in the payload");
  }

  // --- results that are not a verdict ---

  @Test
  void aResultThatIsNotABoolDropsWithItsTypeButNotItsValue() {
    FilterVerdict verdict = evaluate("record.name", "{\"record\":{\"name\":\"secret\"}}");
    assertThat(reason(verdict)).isEqualTo("the expression yielded a string, not a bool");
  }

  @Test
  void aNullResultDrops() {
    assertThat(reason(evaluate("record.name", "{\"record\":{\"name\":null}}")))
        .isEqualTo("the expression yielded null, not a bool");
  }

  @Test
  void aTypeErrorOnTheRowsValuesDrops() {
    assertThat(reason(evaluate("record.n + 1 > 2", "{\"record\":{\"n\":\"two\"}}")))
        .contains("_+_");
  }

  @Test
  void aDivisionByZeroDrops() {
    assertThat(reason(evaluate("record.n / record.d > 1", "{\"record\":{\"n\":1,\"d\":0}}")))
        .contains("by zero");
  }

  // --- payloads ---

  @ParameterizedTest
  @ValueSource(strings = {"[1,2]", "\"text\"", "42", "null", "true", "  [ ]  "})
  void aPayloadThatIsNotAnObjectPassesUnjudged(String payload) {
    assertThat(evaluate("record.alive == true", payload)).isEqualTo(FilterVerdict.PASS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "{\"record\":", "{\"a\":1} {\"a\":2}", "[1,", "{'a':1}", "nul"})
  void aPayloadThatIsNotValidJsonDropsSayingSo(String payload) {
    assertThat(reason(evaluate("record.alive == true", payload))).startsWith("not valid JSON: ");
  }

  @Test
  void aFieldTheExpressionDoesNotReadIsStillCheckedForValidJson() {
    assertThat(reason(evaluate("alive", "{\"alive\":true,\"other\":[1,}")))
        .startsWith("not valid JSON");
  }

  @Test
  void whenAKeyRepeatsTheLastValueCounts() {
    assertThat(evaluate("alive", "{\"alive\":false,\"alive\":true}")).isEqualTo(FilterVerdict.PASS);
  }

  // --- numbers ---

  @ParameterizedTest
  @CsvSource({"2, true", "2.5, true", "1, false", "0.5, false", "1.0, false", "1e1, true"})
  void numbersCompareAcrossIntAndDouble(String n, boolean passes) {
    FilterVerdict verdict = evaluate("record.n > 1", "{\"record\":{\"n\":" + n + "}}");
    assertThat(verdict.passes()).isEqualTo(passes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"record.n == 2", "record.n == 2.0", "2.0 == record.n", "record.n >= 2.0"})
  void anIntFieldEqualsTheSameNumberWrittenEitherWay(String expression) {
    assertThat(evaluate(expression, "{\"record\":{\"n\":2}}")).isEqualTo(FilterVerdict.PASS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 == 1.0", "1.0 == 1", "!(1 != 1.0)", "size(record.tags) == 2.0"})
  void equalityBetweenIntAndDoubleIsDecidedOnValues(String expression) {
    assertThat(evaluate(expression, "{\"record\":{\"tags\":[\"a\",\"b\"]}}"))
        .isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void equalityBetweenUnrelatedTypesIsFalseNotAnError() {
    assertThat(evaluate("record.n == '2'", "{\"record\":{\"n\":2}}")).isEqualTo(FilterVerdict.DROP);
    assertThat(evaluate("'2' != 2", "{}")).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void integersAreIntsAndFractionsAreDoubles() {
    String json = "{\"record\":{\"i\":7,\"f\":7.0,\"e\":7e0}}";
    assertThat(evaluate("type(record.i) == int", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("type(record.f) == double", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("type(record.e) == double", json)).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void anIntegerBeyondSixtyFourBitsIsADouble() {
    String json = "{\"record\":{\"big\":123456789012345678901234567890}}";
    assertThat(evaluate("type(record.big) == double", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.big > 1.2e29 && record.big < 1.3e29", json))
        .isEqualTo(FilterVerdict.PASS);
  }

  /** CEL compares an int with a double as two doubles: exact up to 2^53, documented as such. */
  @Test
  void anIntAndADoubleCompareAtDoublePrecision() {
    String json = "{\"record\":{\"n\":9007199254740993,\"k\":9007199254740992.0}}";
    assertThat(evaluate("record.n > record.k", json)).isEqualTo(FilterVerdict.DROP);
    assertThat(evaluate("record.n == record.k", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.n > 9007199254740992", json)).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void integerArithmeticOverflowDrops() {
    assertThat(reason(evaluate("record.n + 1 > 0", "{\"record\":{\"n\":9223372036854775807}}")))
        .contains("overflow");
  }

  // --- macros ---

  @Test
  void existsLooksInsideAList() {
    RowFilter filter = filter("record.tags.exists(t, t == \"x\")");
    assertThat(filter.evaluate(frame("{\"tags\":[\"a\",\"x\"]}"))).isEqualTo(FilterVerdict.PASS);
    assertThat(filter.evaluate(frame("{\"tags\":[\"a\",\"b\"]}"))).isEqualTo(FilterVerdict.DROP);
  }

  @Test
  void hasTellsAPresentFieldFromAnAbsentOne() {
    RowFilter filter = filter("has(record.id)");
    assertThat(filter.evaluate(frame("{\"id\":null}"))).isEqualTo(FilterVerdict.PASS);
    assertThat(filter.evaluate(frame("{\"name\":\"a\"}"))).isEqualTo(FilterVerdict.DROP);
  }

  @Test
  void allExistsOneMapAndFilterWork() {
    String json = "{\"record\":{\"n\":[1,2,3,4]}}";
    assertThat(evaluate("record.n.all(x, x > 0)", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.n.exists_one(x, x > 3)", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.n.exists_one(x, x > 2)", json)).isEqualTo(FilterVerdict.DROP);
    assertThat(evaluate("record.n.map(x, x * 2)[3] == 8", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.n.filter(x, x % 2 == 0) == [2, 4]", json))
        .isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void aMacroOverAMapIteratesItsKeys() {
    assertThat(
            evaluate(
                "record.m.exists(k, record.m[k] == 2)", "{\"record\":{\"m\":{\"a\":1,\"b\":2}}}"))
        .isEqualTo(FilterVerdict.PASS);
  }

  // --- strings, maps, lists, null ---

  @Test
  void stringFunctionsApplyToStringFields() {
    String json = "{\"record\":{\"host\":\"db-01.example.org\"}}";
    assertThat(evaluate("record.host.startsWith('db-')", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.host.endsWith('.org')", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.host.contains('example')", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.host.matches('^db-[0-9]+')", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("size(record.host) == 17", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.host == 'db-02.example.org'", json)).isEqualTo(FilterVerdict.DROP);
  }

  @Test
  void nestedObjectsAreMapsReadByFieldOrByIndex() {
    String json = "{\"record\":{\"a\":{\"b\":{\"c\":\"deep\"}}}}";
    assertThat(evaluate("record.a.b.c == 'deep'", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record['a']['b']['c'] == 'deep'", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("'b' in record.a", json)).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void arraysAreListsWithIndexSizeAndIn() {
    String json = "{\"record\":{\"l\":[1,\"two\",[3.5],{\"k\":true}]}}";
    assertThat(evaluate("size(record.l) == 4", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.l[1] == 'two' && record.l[2][0] == 3.5", json))
        .isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("record.l[3].k", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("'two' in record.l", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(reason(evaluate("record.l[9] == 1", json))).contains("9");
  }

  @Test
  void jsonNullIsCelNull() {
    String json = "{\"record\":{\"z\":null}}";
    assertThat(evaluate("record.z == null", json)).isEqualTo(FilterVerdict.PASS);
    assertThat(evaluate("type(record.z) == null_type", json)).isEqualTo(FilterVerdict.PASS);
  }

  @Test
  void unicodeAndEscapesInStringsAreDecoded() {
    assertThat(evaluate("name == 'é\"✓'", "{\"name\":\"\\u00e9\\\"✓\"}"))
        .isEqualTo(FilterVerdict.PASS);
  }
}
