package dfe.fetcher.rest.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinkHeadersTest {

  @Test
  void theNextLinkIsFoundAmongOthersWhateverItsPlace() {
    assertThat(
            LinkHeaders.next(
                "<https://a/x?page=1>; rel=\"prev\", <https://a/x?page=3>; rel=\"next\","
                    + " <https://a/x?page=9>; rel=\"last\""))
        .hasValue("https://a/x?page=3");
  }

  @Test
  void relMayListSeveralTypesAndBeUnquotedOrInAnyCase() {
    assertThat(LinkHeaders.next("<b>; title=\"a, b\"; rel=\"NEXT last\"")).hasValue("b");
    assertThat(LinkHeaders.next("</p2>; rel=next")).hasValue("/p2");
  }

  @Test
  void noNextLinkIsEmpty() {
    assertThat(LinkHeaders.next("<https://a/x?page=1>; rel=\"prev\"")).isEmpty();
    assertThat(LinkHeaders.next("")).isEmpty();
  }
}
