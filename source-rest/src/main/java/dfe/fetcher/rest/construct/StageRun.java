package dfe.fetcher.rest.construct;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.TemplateWindow;
import java.util.Map;
import java.util.Optional;

/**
 * One listing's run of a second stage.
 *
 * @param source the unit, {@code <id>.<unit>}
 * @param request the listing of the stage's request
 * @param vars the connection's variables
 * @param window the window being read; empty for a dump
 * @param bound what the listing's templates read beside it (the keyset's {@code key})
 * @param out where the stage's rows go
 * @param progress where items with a checkpoint are reported landed
 * @param resumeAfter the last item landed of this window by an earlier tick: items up to it (by
 *     position, then key) are not requested again
 */
public record StageRun(
    String source,
    Listing request,
    Map<String, String> vars,
    Optional<TemplateWindow> window,
    Map<String, Object> bound,
    Listing.RowsOut out,
    ItemProgress progress,
    Optional<WindowMark.Item> resumeAfter,
    Cancellation cancellation) {}
