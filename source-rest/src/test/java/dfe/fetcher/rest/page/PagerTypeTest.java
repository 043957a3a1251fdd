package dfe.fetcher.rest.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The registry of pagers: names as the configuration writes them, and the keys they take. */
class PagerTypeTest {

  @Test
  void theKeysPaginateTakesAreTypeThenEachPagersOwnInTheOrderTheyAreRegistered() {
    assertThat(PagerType.sectionKeys())
        .containsExactly(
            "type",
            "has_more",
            "stop_when",
            "next_at",
            "header",
            "from",
            "into",
            "join",
            "param",
            "start",
            "total_pages_at",
            "limit_param",
            "page_size",
            "total_at",
            "short_page_ends");
  }

  @Test
  void aPagerIsFoundOnlyByTheWordTheConfigurationWrites() {
    assertThat(PagerType.named("page_number")).hasValue(PagerType.PAGE_NUMBER);
    assertThat(PagerType.named("PAGE_NUMBER")).isEmpty();
    assertThat(PagerType.names())
        .containsExactly(
            "none", "link_header", "json_link", "header_link", "cursor", "page_number", "offset");
  }
}
