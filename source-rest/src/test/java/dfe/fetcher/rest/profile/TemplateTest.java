package dfe.fetcher.rest.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {

  @Test
  void placeholdersAreReplacedAndTheRestIsCopied() {
    Template template = Template.parse("{{vars.host}}/v1/{{ unit.name }}?x={{ window.start }}");

    assertThat(template.names()).containsExactly("vars.host", "unit.name", "window.start");
    assertThat(
            template.render(
                Map.of("vars.host", "https://h", "unit.name", "u", "window.start", "t0")))
        .isEqualTo("https://h/v1/u?x=t0");
  }

  @Test
  void aNameThatIsNotATemplateVariableIsRefused() {
    assertThatThrownBy(() -> Template.parse("{{ env.HOME }}"))
        .hasMessage(
            "'{{ env.HOME }}' is not a template variable; one of vars.<name>, window.start,"
                + " window.end, unit.name");
  }

  @Test
  void anUnclosedPlaceholderIsRefused() {
    assertThatThrownBy(() -> Template.parse("/a/{{ vars.x"))
        .hasMessage("has an unclosed '{{' or a stray '}}'");
  }
}
