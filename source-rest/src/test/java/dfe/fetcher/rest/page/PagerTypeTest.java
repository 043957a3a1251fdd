package dfe.fetcher.rest.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The registry of pagers: names as the configuration writes them, and the keys they take. */
class PagerTypeTest {

  @Test
  void theKeysPaginateTakesAreTypeThenEachPagersOwnInTheOrderTheyAreRegistered() {
    assertThat(PagerType.sectionKeys())
        .containsExactly(
            "type", "from", "into", "param", "start", "total_pages_at", "limit_param", "page_size");
  }

  @Test
  void aPagerIsFoundOnlyByTheWordTheConfigurationWrites() {
    assertThat(PagerType.named("page_number")).hasValue(PagerType.PAGE_NUMBER);
    assertThat(PagerType.named("PAGE_NUMBER")).isEmpty();
    assertThat(PagerType.names())
        .containsExactly("none", "link_header", "cursor", "page_number", "offset");
  }
}
