package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.construct.Constructs;
import dfe.fetcher.rest.construct.Manifest;
import dfe.fetcher.rest.page.ListerType;
import dfe.fetcher.source.config.Section;
import java.util.Optional;

/**
 * Binds an endpoint's {@code lister}: its listing is the store's, so the endpoint needs a {@code
 * construct.manifest} to read the objects, which then reads them in the lister's order and gives
 * each object its checkpoint, (last_modified, key). A keyset beside it, a lookup instead of the
 * manifest, or a manifest {@code key} or {@code position} other than the object's key and
 * last-modified time is reported at its path.
 */
final class ListerBinder {

  /** What a manifest's {@code key} and {@code position} must read beside a lister, if written. */
  private static final String KEY = "{{item.key}}";

  private static final String POSITION = "{{item.last_modified}}";

  private ListerBinder() {}

  static Constructs bind(Section endpoint, ListerType lister, Constructs constructs) {
    String word = "lister: " + lister.configName();
    if (constructs.keyset().isPresent()) {
      endpoint.report(
          "lister",
          "does not combine with construct.keyset: the objects of several listings are in no one"
              + " order to resume in; name one unit per bucket or prefix (units.NAME.endpoint)");
    }
    if (!(constructs.second().orElse(null) instanceof Manifest manifest)) {
      endpoint.report(
          "lister",
          "lists objects for a construct.manifest to read; add one, e.g. construct: {manifest:"
              + " {item_request: {path: \"/{{ item.bucket }}/{{ item.path }}\", rows: {decoder:"
              + " ndjson}}}}");
      return constructs;
    }
    check(endpoint, manifest, manifest.key(), "key", KEY, word);
    check(endpoint, manifest, manifest.position(), "position", POSITION, word);
    return new Constructs(
        constructs.prelude(),
        constructs.keyset(),
        Optional.of(manifest.listedBy(lister)),
        constructs.queue(),
        constructs.fold());
  }

  private static void check(
      Section endpoint,
      Manifest manifest,
      Optional<Template> written,
      String key,
      String expected,
      String word) {
    if (written.isPresent() && !written.get().text().replace(" ", "").equals(expected)) {
      endpoint.report(
          endpoint.originOf("construct"),
          manifest.configPath() + "." + key,
          "beside "
              + word
              + " must be \""
              + expected.replace("{{", "{{ ").replace("}}", " }}")
              + "\" or left out: the objects are read and resumed in (last_modified, key) order");
    }
  }
}
