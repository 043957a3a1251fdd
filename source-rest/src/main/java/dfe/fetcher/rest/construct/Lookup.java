package dfe.fetcher.rest.construct;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.page.Listing;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.JsonValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code construct.lookup}: the listing's rows name ids (at {@code id_at}, or each row is one); a
 * second request is sent per {@code batch} of them, its templates reading the batch as {@code ids}
 * (a typed list: {@code "{{ ids }}"} in a body is a JSON array of the ids as they were, strings,
 * numbers or objects), and its rows are what lands. The listing's own rows do not land.
 *
 * <p>Ids are gathered while a page is read and sent once its body is closed, {@code batch} at a
 * time; fewer than {@code batch} left wait for the next page, and the last ones go after the last
 * page. So what is held is a page's ids (with fewer than {@code batch} carried over), never the
 * listing's. A lookup request that fails fails the listing; one whose pages reach its {@code
 * max_pages} with more to read fails it too.
 *
 * @param idAt the JSON pointer of a row's id; empty when the row is the id
 * @param batch the most ids one request carries
 * @param request the lookup request: its method (POST by default), path, body, rows, pager
 * @param configPath where {@code construct.lookup} is written, for messages
 */
public record Lookup(Optional<String> idAt, int batch, Endpoint request, String configPath)
    implements SecondStage {

  public static final int DEFAULT_BATCH = 1000;

  private static final ObjectMapper JSON = new ObjectMapper();

  public Lookup {
    Objects.requireNonNull(idAt, "idAt");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(configPath, "configPath");
  }

  @Override
  public String describe() {
    return "lookup of "
        + batch
        + " ids a request, "
        + request.method()
        + " "
        + request.path().text();
  }

  @Override
  public SecondStage.Rows open(StageRun run) {
    return new Batches(run);
  }

  private final class Batches implements SecondStage.Rows {
    private final StageRun run;
    private final List<Object> ids = new ArrayList<>();

    Batches(StageRun run) {
      this.run = run;
    }

    @Override
    public void row(RawRecord record, String origin) throws SourceException {
      JsonNode id;
      try {
        id = JSON.readTree(record.bytes());
      } catch (IOException e) {
        throw new SourceException(origin + ": " + configPath + ": the row is not JSON");
      }
      if (idAt.isPresent()) {
        id = id.at(idAt.get());
        if (id.isMissingNode() || id.isNull()) {
          throw new SourceException(
              origin + ": " + configPath + ".id_at: the row has no id at " + idAt.get());
        }
      }
      ids.add(JsonValues.of(id));
    }

    @Override
    public void pageRead() throws SourceException, InterruptedException {
      while (ids.size() >= batch) {
        send(batch);
      }
    }

    @Override
    public void finish() throws SourceException, InterruptedException {
      if (!ids.isEmpty()) {
        send(ids.size());
      }
    }

    private void send(int count) throws SourceException, InterruptedException {
      List<Object> sent = List.copyOf(ids.subList(0, count));
      ids.subList(0, count).clear();
      Map<String, Object> bound = new HashMap<>(run.bound());
      bound.put("ids", sent);
      Listing.Listed listed =
          run.request().readUpToMaxPages(run.window(), bound, run.out(), run.cancellation());
      if (listed.cutShort().isPresent()) {
        throw new SourceException(
            listed.cutShort().get() + " (the " + configPath + ".request of " + count + " ids)");
      }
    }
  }
}
