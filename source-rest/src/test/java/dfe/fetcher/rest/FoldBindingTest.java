package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code construct.fold} refuses at load, each at its config path. */
class FoldBindingTest {

  private static final String WINDOWED =
      "body: {since: \"{{ window.start }}\"}\nwindow: {format: rfc3339_secs, lookback: 1h}";

  private static List<String> problems(String construct) {
    return problems(WINDOWED, construct);
  }

  private static List<String> problems(String request, String construct) {
    return RestFixture.problems(
        """
        topic: lab
        profile:
          base_url: "http://127.0.0.1:1"
          endpoints:
            - unit: things
              shape: tail
              method: POST
              path: /pull
              rows: {decoder: json_at, at: /messages}
        %s
              construct:
        %s
        """
            .formatted(request.indent(6).stripTrailing(), construct.indent(10).stripTrailing()));
  }

  @Test
  void anUnknownFoldIsRefusedNamingTheFolds() {
    assertThat(problems("fold: sum_everything"))
        .singleElement()
        .asString()
        .endsWith(
            "sources.rest.lab.profile.endpoints[0].construct.fold: unknown fold 'sum_everything';"
                + " one of go_module_aggregate");
  }

  @Test
  void aFoldBesideAQueueIsRefused() {
    assertThat(
            problems(
                "body: {max: 10}",
                """
                fold: go_module_aggregate
                queue:
                  ack_at: /ackId
                  ack_request: {path: /ack, body: {ids: "{{ ack_ids }}"}}
                """))
        .singleElement()
        .asString()
        .endsWith(
            "sources.rest.lab.profile.endpoints[0].construct.fold: does not combine with"
                + " construct.queue: a pull's messages are acknowledged as their own rows land,"
                + " not as a fold of them");
  }

  @Test
  void aFoldBesideItemCheckpointsIsRefused() {
    assertThat(
            problems(
                """
                fold: go_module_aggregate
                manifest:
                  item_request: {path: "{{ item.url }}", rows: {decoder: document}}
                  key: "{{ item.id }}"
                  position: "{{ item.created }}"
                """))
        .singleElement()
        .asString()
        .endsWith(
            "sources.rest.lab.profile.endpoints[0].construct.fold: does not combine with a"
                + " manifest's key and position: a folded row is no one item's, so no item"
                + " checkpoint could be committed for it");
  }
}
