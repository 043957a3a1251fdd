package dfe.fetcher.rest.construct;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import java.util.Optional;

/**
 * What becomes of an endpoint's listed rows when they are not what lands: each construct that turns
 * them into further requests ({@code lookup}, {@code manifest}) is one implementation.
 *
 * <p>The contract, which {@link UnitReader} keeps: {@link #open} is called once per listing (one
 * key of a dump or a window); the rows it returns get each listed row while its page is read, then
 * {@link Listing.RowsOut#pageRead} once the page's body is closed (only then may it send requests:
 * a request sent while a page is read would hold two of the connection's request slots at once),
 * then {@link Rows#finish} after the last page. Its own rows go to the run's {@code out}. A failure
 * throws, naming the setting and the place, never a value; the listing then fails as a page does.
 */
public sealed interface SecondStage permits Lookup, Manifest {

  /** The request it sends, an endpoint of its own (its rows, pager and bounds). */
  Endpoint request();

  /** Whether its request's path may render as a whole URL (a listed item's link). */
  default boolean wholeUrlPath() {
    return false;
  }

  /** What {@code config-check} says of it: its word, bounds and request, no value of a var. */
  String describe();

  /** Its rows for one listing. */
  Rows open(StageRun run);

  /** A second stage's end of one listing. */
  interface Rows extends Listing.RowsOut {

    /** The listing read its last page: what is held is sent now. */
    void finish() throws SourceException, InterruptedException;

    /**
     * When the stage stopped the listing on purpose ({@code max_items} reached with more listed),
     * why, naming what was left; the listing is then cut short, as by {@code max_pages}.
     */
    default Optional<String> cutShort() {
      return Optional.empty();
    }
  }
}
