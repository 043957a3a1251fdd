package dfe.fetcher.rest.construct;

import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.page.ListerType;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.JsonValues;
import dfe.fetcher.rest.profile.Template;
import dfe.fetcher.rest.profile.TemplateException;
import dfe.fetcher.rest.profile.TemplateValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code construct.manifest}: each row of the listing is an item, and {@code item_request} is sent
 * once per item, its templates reading it as {@code item} ({@code {{ item.contentUri }}}; a path
 * that renders as a whole URL is requested as it is). The items' rows land, not the listing's.
 *
 * <p>Items are gathered while a page is read and requested in order once its body is closed, so
 * what is held is one page's items. {@code max_items} bounds the items of one listing: one more
 * cuts it short, as {@code max_pages} does. With {@code key} and {@code position} (templates over
 * {@code item}), every item whose rows were all handed on is reported to the run's {@link
 * ItemProgress}, and a run resuming after an item skips the items up to it in ({@code position},
 * {@code key}) order ({@link ItemOrder}), so the listing must be ordered by {@code position},
 * ascending.
 *
 * @param itemRequest the request per item: method (GET by default), path, rows, errors
 * @param maxItems the most items one listing requests
 * @param key an item's identity, when items carry a checkpoint
 * @param position what the listing is ordered by, set with {@code key}
 *     <p>Beside a {@code lister} the items are objects of a store, listed in key order, not in time
 *     order: they are read as {@link ListedObjects} says, oldest first once the whole listing is
 *     read, each a checkpoint (its {@code last_modified}, then its {@code key}) in a tail unit.
 * @param configPath where {@code construct.manifest} is written, for messages
 * @param lister the lister whose objects are the items, when the endpoint has one
 */
public record Manifest(
    Endpoint itemRequest,
    int maxItems,
    Optional<Template> key,
    Optional<Template> position,
    String configPath,
    Optional<ListerType> lister)
    implements SecondStage {

  public static final int DEFAULT_MAX_ITEMS = 1000;

  private static final ObjectMapper JSON = new ObjectMapper();

  public Manifest {
    Objects.requireNonNull(itemRequest, "itemRequest");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(configPath, "configPath");
    Objects.requireNonNull(lister, "lister");
  }

  /** A manifest of the listing's rows, without a lister. */
  public Manifest(
      Endpoint itemRequest,
      int maxItems,
      Optional<Template> key,
      Optional<Template> position,
      String configPath) {
    this(itemRequest, maxItems, key, position, configPath, Optional.empty());
  }

  /** This manifest reading the objects {@code lister} lists: its item requests are the store's. */
  public Manifest listedBy(ListerType lister) {
    return new Manifest(
        itemRequest.with(itemRequest.constructs(), Optional.of(lister)),
        maxItems,
        key,
        position,
        configPath,
        Optional.of(lister));
  }

  @Override
  public Endpoint request() {
    return itemRequest;
  }

  @Override
  public boolean wholeUrlPath() {
    return true;
  }

  /** Whether each item carries a checkpoint. */
  public boolean checkpoints() {
    return (key.isPresent() && position.isPresent())
        || (lister.isPresent() && itemRequest.shape() == Shape.TAIL);
  }

  @Override
  public String describe() {
    return "manifest of at most "
        + maxItems
        + " items, "
        + itemRequest.method()
        + " "
        + itemRequest.path().text()
        + (checkpoints() ? ", each item a checkpoint" : "")
        + lister.map(l -> ", the objects lister " + l.configName() + " lists").orElse("");
  }

  @Override
  public SecondStage.Rows open(StageRun run) {
    return lister.isPresent() ? new ListedObjects(this, run) : new Items(run);
  }

  private final class Items implements SecondStage.Rows {
    private final StageRun run;
    private final List<Listed> items = new ArrayList<>();
    private int requested;
    private Optional<String> cutShort = Optional.empty();

    Items(StageRun run) {
      this.run = run;
    }

    @Override
    public void row(RawRecord record, String origin) throws SourceException {
      try {
        items.add(new Listed(JsonValues.of(JSON.readTree(record.bytes())), origin));
      } catch (IOException e) {
        throw new SourceException(origin + ": " + configPath + ": the item is not JSON");
      }
    }

    @Override
    public void pageRead() throws SourceException, InterruptedException {
      List<Listed> page = List.copyOf(items);
      items.clear();
      for (Listed item : page) {
        request(item);
      }
    }

    @Override
    public void finish() throws SourceException, InterruptedException {
      pageRead();
    }

    @Override
    public Optional<String> cutShort() {
      return cutShort;
    }

    private void request(Listed item) throws SourceException, InterruptedException {
      Map<String, Object> bound = new HashMap<>(run.bound());
      bound.put("item", item.value());
      Optional<WindowMark.Item> mark =
          checkpoints() ? Optional.of(mark(item, bound)) : Optional.empty();
      if (mark.isPresent()
          && run.resumeAfter().isPresent()
          && ItemOrder.compare(mark.get(), run.resumeAfter().get()) <= 0) {
        return;
      }
      if (requested >= maxItems) {
        cutShort =
            Optional.of(
                run.source()
                    + ": reached "
                    + configPath
                    + ".max_items "
                    + maxItems
                    + " with more items listed (the next: "
                    + item.origin()
                    + "); cut short, not complete");
        throw new SourceException(cutShort.get());
      }
      requested++;
      run.request().readUpToMaxPages(run.window(), bound, run.out(), run.cancellation());
      if (mark.isPresent()) {
        run.progress().landed(mark.get());
      }
    }

    private WindowMark.Item mark(Listed item, Map<String, Object> bound) throws SourceException {
      TemplateValues values = itemRequest.values(run.vars(), run.window(), bound);
      try {
        return new WindowMark.Item(key.get().render(values), position.get().render(values));
      } catch (TemplateException e) {
        throw new SourceException(
            item.origin() + ": " + configPath + ".key or .position: " + e.getMessage(), e);
      }
    }
  }

  /** A listed item, as a template reads it, and where it was listed. */
  private record Listed(Object value, String origin) {}
}
