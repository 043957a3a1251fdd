package dfe.fetcher.app.top;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  private static List<MetricSample> parse(String text) throws IOException {
    return PrometheusText.parse(new StringReader(text));
  }

  @Test
  void samplesAreReadWithTheirLabelsAndCommentsAreSkipped() throws IOException {
    List<MetricSample> samples =
        parse(
            """
            # HELP dfe_fetcher_records_total Records landed
            # TYPE dfe_fetcher_records_total counter
            dfe_fetcher_records_total{source="inventory.hosts",topic="inventory-hosts_land"} 1002.0

            dfe_fetcher_ready 1.0
            """);

    assertThat(samples)
        .containsExactly(
            new MetricSample(
                "dfe_fetcher_records_total",
                Map.of("source", "inventory.hosts", "topic", "inventory-hosts_land"),
                1002.0),
            new MetricSample("dfe_fetcher_ready", Map.of(), 1.0));
  }

  @Test
  void labelValuesKeepEscapedQuotesBackslashesNewlinesCommasAndBraces() throws IOException {
    List<MetricSample> samples =
        parse("m{a=\"say \\\"hi\\\"\",b=\"c:\\\\dir\",c=\"two\\nlines\",d=\"x,y}z\"} 3\n");

    assertThat(samples.get(0).labels())
        .isEqualTo(Map.of("a", "say \"hi\"", "b", "c:\\dir", "c", "two\nlines", "d", "x,y}z"));
  }

  @Test
  void specialValuesAndATimestampAreRead() throws IOException {
    List<MetricSample> samples =
        parse("a +Inf\nb -Inf\nc NaN\nd 1.5e3 1700000000000\ne{x=\"1\",} -2\n");

    assertThat(samples.get(0).value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(samples.get(1).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(samples.get(2).value()).isNaN();
    assertThat(samples.get(3).value()).isEqualTo(1500.0);
    assertThat(samples.get(4)).isEqualTo(new MetricSample("e", Map.of("x", "1"), -2.0));
  }

  @Test
  void aValueThatIsNotANumberIsAnErrorNamingTheLine() {
    assertThatThrownBy(() -> parse("ok 1\nbroken_total{a=\"b\"} many\n"))
        .isInstanceOf(PrometheusText.FormatException.class)
        .hasMessage("line 2: broken_total: many is not a number");
  }

  @Test
  void anUnclosedLabelValueIsAnErrorNamingTheLabel() {
    assertThatThrownBy(() -> parse("m{a=\"open} 1\n"))
        .isInstanceOf(PrometheusText.FormatException.class)
        .hasMessage("line 1: label a: the value has no closing quote");
  }

  @Test
  void aLineWithoutANameIsAnError() {
    assertThatThrownBy(() -> parse("<html>\n"))
        .isInstanceOf(PrometheusText.FormatException.class)
        .hasMessage("line 1: no metric name at the start");
  }

  @Test
  void aSampleWithoutAValueIsAnError() {
    assertThatThrownBy(() -> parse("m{a=\"b\"}\n"))
        .isInstanceOf(PrometheusText.FormatException.class)
        .hasMessage("line 1: m: expected a value and at most a timestamp");
  }
}
