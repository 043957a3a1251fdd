package dfe.fetcher.rest.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateTest {

  private static final TimeZone JVM_ZONE = TimeZone.getDefault();
  private static final Instant START = Instant.parse("2026-12-01T08:05:09.123Z");
  private static final Instant END = Instant.parse("2026-12-01T09:00:00Z");

  private final TemplateScope tail =
      TemplateScope.of("sources.rest.lab.vars", List.of("host", "limit", "name"), true);
  private final TemplateValues values =
      TemplateValues.of(Map.of("host", "https://h", "limit", "250", "name", "Acme Corp"), "u")
          .with(Optional.of(new TemplateWindow(START, END, TimeFormat.RFC3339_SECS)));

  @AfterEach
  void restoreZone() {
    TimeZone.setDefault(JVM_ZONE);
  }

  private String render(String text) {
    return Template.parse(text, tail, Template.Use.TEXT).render(values);
  }

  @Test
  void placeholdersAreReplacedAndTheRestIsCopied() {
    Template template =
        Template.parse(
            "{{vars.host}}/v1/{{ unit.name }}?x={{ window.start }}", tail, Template.Use.TEXT);

    assertThat(template.names()).containsExactly("vars.host", "unit.name", "window.start");
    assertThat(template.render(values)).isEqualTo("https://h/v1/u?x=2026-12-01T08:05:09Z");
  }

  @Test
  void aWindowBoundRendersInTheWindowsFormat() {
    TemplateValues epoch =
        TemplateValues.of(Map.of(), "u")
            .with(Optional.of(new TemplateWindow(START, END, TimeFormat.EPOCH_MILLIS)));

    assertThat(Template.parse("{{ window.end }}", tail, Template.Use.TEXT).render(epoch))
        .isEqualTo("1796115600000");
  }

  @Test
  void conditionalsIntAndStringFunctionsAreCel() {
    assertThat(render("{{ int(vars.limit) > 100 ? 100 : int(vars.limit) }}")).isEqualTo("100");
    assertThat(render("{{ vars.name.lowerAscii().replace(' ', '-') }}")).isEqualTo("acme-corp");
    assertThat(render("{{ vars.name.split(' ')[0] }}")).isEqualTo("Acme");
    assertThat(render("{{ size(vars.name) }}")).isEqualTo("9");
  }

  @Test
  void listsRangeNumbersTheElementsAMacroWalks() {
    assertThat(
            render(
                "{{ lists.range(size(vars.name.split(' '))).map(i, 'm' + string(i)).join(',') }}"))
        .isEqualTo("m0,m1");
    assertThat(render("{{ size(lists.range(0)) }}")).isEqualTo("0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Pacific/Kiritimati", "America/Los_Angeles", "UTC"})
  void timeFunctionsRenderInUtcWhateverTheJvmsZone(String jvmZone) {
    TimeZone.setDefault(TimeZone.getTimeZone(jvmZone));

    assertThat(render("{{ rfc3339_secs(window.start) }}")).isEqualTo("2026-12-01T08:05:09Z");
    assertThat(render("{{ rfc3339_millis(window.start) }}")).isEqualTo("2026-12-01T08:05:09.123Z");
    assertThat(render("{{ epoch_secs(window.start) }}")).isEqualTo("1796112309");
    assertThat(render("{{ epoch_millis(window.start) }}")).isEqualTo("1796112309123");
    assertThat(render("{{ format_time(window.start, '%Y-%m-%d %H:%M:%S.%L') }}"))
        .isEqualTo("2026-12-01 08:05:09.123");
    assertThat(render("{{ format_time(window.start, '%a %d %b %Y %I%p %j %u %s %%') }}"))
        .isEqualTo("Tue 01 Dec 2026 08AM 335 2 1796112309 %");
    assertThat(render("{{ format_time(window.start - duration('9h'), '%F') }}"))
        .isEqualTo("2026-11-30");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Pacific/Kiritimati", "America/Los_Angeles"})
  void aNamedZoneIsUsedOnlyWhereItIsNamed(String jvmZone) {
    TimeZone.setDefault(TimeZone.getTimeZone(jvmZone));

    assertThat(render("{{ format_time(window.start, '%FT%T%z %Z', 'Asia/Tokyo') }}"))
        .isEqualTo("2026-12-01T17:05:09+0900 Asia/Tokyo");
    assertThat(render("{{ rfc3339_secs(window.start, 'America/New_York') }}"))
        .isEqualTo("2026-12-01T03:05:09-05:00");
    assertThat(render("{{ rfc3339_millis(window.start, '+05:30') }}"))
        .isEqualTo("2026-12-01T13:35:09.123+05:30");
  }

  @Test
  void aWholeExpressionKeepsItsTypeAndTextAroundItMakesAString() {
    assertThat(Template.parse("{{ int(vars.limit) }}", tail, Template.Use.JSON_VALUE).value(values))
        .isEqualTo(250L);
    assertThat(
            Template.parse("n{{ int(vars.limit) }}", tail, Template.Use.JSON_VALUE).value(values))
        .isEqualTo("n250");
  }

  @Test
  void aNameThatIsNotATemplateVariableIsRefused() {
    assertThatThrownBy(() -> Template.parse("{{ env.HOME }}", tail, Template.Use.TEXT))
        .hasMessage(
            "'{{ env.HOME }}' is not a template variable; one of vars.<name>, window.start,"
                + " window.end, unit.name");
  }

  @Test
  void anUndefinedVariableNamesWhereToDefineIt() {
    assertThatThrownBy(
            () -> Template.parse("{{ vars.tenant.upperAscii() }}", tail, Template.Use.TEXT))
        .hasMessage(
            "reads {{ vars.tenant }}, which is not defined; set tenant in sources.rest.lab.vars"
                + " (defined: host, limit, name)");
  }

  @Test
  void aTypeErrorCelCanSeeIsRefused() {
    assertThatThrownBy(() -> Template.parse("{{ vars.limit + 1 }}", tail, Template.Use.TEXT))
        .hasMessageStartingWith(
            "'{{ vars.limit + 1 }}' does not compile: found no matching overload for '_+_'"
                + " applied to '(string, int)'");
  }

  @Test
  void aListIsRefusedWhereTextIsWritten() {
    assertThatThrownBy(() -> Template.parse("{{ vars.name.split(' ') }}", tail, Template.Use.TEXT))
        .hasMessage(
            "'{{ vars.name.split(' ') }}' yields list, which cannot be written as text (a string,"
                + " number, bool or timestamp)");
  }

  @Test
  void aConstantPatternOrZoneThatIsNoneIsRefused() {
    assertThatThrownBy(
            () -> Template.parse("{{ format_time(window.start, '%Q') }}", tail, Template.Use.TEXT))
        .hasMessageStartingWith(
            "'{{ format_time(window.start, '%Q') }}' '%Q' (character 1) is not a format_time"
                + " directive");
    assertThatThrownBy(
            () ->
                Template.parse(
                    "{{ rfc3339_secs(window.start, 'Mars/Olympus') }}", tail, Template.Use.TEXT))
        .hasMessageContaining("no time zone 'Mars/Olympus'");
  }

  @Test
  void anExpressionThatFailsOnItsValuesNamesItself() {
    Template template = Template.parse("{{ int(vars.name) }}", tail, Template.Use.TEXT);

    assertThatThrownBy(() -> template.render(values))
        .isInstanceOf(TemplateException.class)
        .hasMessageStartingWith("'{{ int(vars.name) }}' cannot be evaluated: ");
  }

  @Test
  void anUnclosedPlaceholderIsRefused() {
    assertThatThrownBy(() -> Template.parse("/a/{{ vars.x", tail, Template.Use.TEXT))
        .hasMessage("has an unclosed '{{' or a stray '}}'");
  }
}
