package dfe.fetcher.rest.construct;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.rest.profile.JsonValues;
import dfe.fetcher.rest.profile.TemplateWindow;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A manifest's items when they are the objects a {@code lister} lists: {@code {bucket, key, path,
 * last_modified, size, etag}}, listed in key order, which is not the order they were written in.
 *
 * <p>The rule: an object is due in the window {@code [start, end)} when its {@code last_modified}
 * lies in it, and the window's objects are read oldest first, by ({@code last_modified}, {@code
 * key}), the {@link ItemOrder} a manifest resumes in. So nothing is requested until the whole
 * listing is read (an object on the last page may be the oldest); what is held meanwhile is the
 * {@code max_items + 1} oldest objects due, past the checkpoint, never the listing. Each object
 * whose rows were all handed on is reported landed (a tail unit commits {@code WindowMark(start,
 * after: {key, position: last_modified})} once those rows are acknowledged); a tick resuming after
 * one skips every object up to it in that order. When more objects are due than {@code max_items},
 * the oldest {@code max_items} are read and the listing is cut short, naming the next one: the next
 * tick goes on after the last one read. A dump reads every object listed, in the same order.
 */
final class ListedObjects implements SecondStage.Rows {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Manifest manifest;
  private final StageRun run;
  private final TreeSet<Listed> oldest =
      new TreeSet<>((a, b) -> ItemOrder.compare(a.mark(), b.mark()));
  private Optional<String> cutShort = Optional.empty();

  ListedObjects(Manifest manifest, StageRun run) {
    this.manifest = manifest;
    this.run = run;
  }

  @Override
  public void row(RawRecord record, String origin) throws SourceException {
    JsonNode object;
    Instant lastModified;
    try {
      object = JSON.readTree(record.bytes());
      lastModified = Instant.parse(object.path("last_modified").asText());
    } catch (IOException | DateTimeParseException e) {
      throw new SourceException(
          origin + ": " + manifest.configPath() + ": the listed object has no last_modified time");
    }
    Optional<TemplateWindow> window = run.window();
    if (window.isPresent()
        && (lastModified.isBefore(window.get().start())
            || !lastModified.isBefore(window.get().end()))) {
      return;
    }
    WindowMark.Item mark =
        new WindowMark.Item(object.path("key").asText(), object.path("last_modified").asText());
    if (run.resumeAfter().isPresent() && ItemOrder.compare(mark, run.resumeAfter().get()) <= 0) {
      return;
    }
    oldest.add(new Listed(mark, object.path("bucket").asText(), JsonValues.of(object)));
    if (oldest.size() > manifest.maxItems() + 1) {
      oldest.pollLast();
    }
  }

  @Override
  public void finish() throws SourceException, InterruptedException {
    Iterator<Listed> due = oldest.iterator();
    for (int read = 0; due.hasNext(); read++) {
      Listed object = due.next();
      if (read == manifest.maxItems()) {
        cutShort =
            Optional.of(
                run.source()
                    + ": reached "
                    + manifest.configPath()
                    + ".max_items "
                    + manifest.maxItems()
                    + " with more objects due (the next: "
                    + object.bucket()
                    + "/"
                    + object.mark().key()
                    + "); cut short, not complete");
        throw new SourceException(cutShort.get());
      }
      request(object);
    }
  }

  @Override
  public Optional<String> cutShort() {
    return cutShort;
  }

  private void request(Listed object) throws SourceException, InterruptedException {
    Map<String, Object> bound = new HashMap<>(run.bound());
    bound.put("item", object.value());
    run.request().readUpToMaxPages(run.window(), bound, run.out(), run.cancellation());
    if (manifest.checkpoints()) {
      run.progress().landed(object.mark());
    }
  }

  /** A listed object due, its checkpoint and its value as a template reads it. */
  private record Listed(WindowMark.Item mark, String bucket, Object value) {}
}
