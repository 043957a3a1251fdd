package dfe.fetcher.cursor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.checkpoint.CursorStore;
import dfe.fetcher.row.FileMark;
import dfe.fetcher.row.Mark;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON file per cursor key under a directory: {@code <key>.json}, written to a temporary file,
 * fsynced, renamed over the old one and the directory fsynced, so a crash leaves either the old
 * cursor or the new one, whole. A cursor that cannot be read or understood is logged and treated as
 * none: the unit starts over, which re-lands data rather than skipping it.
 */
public final class FileCursorStore implements CursorStore {

  private static final Logger LOG = LoggerFactory.getLogger(FileCursorStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;
  private final Clock clock;

  public FileCursorStore(Path directory, Clock clock) {
    this.directory = directory;
    this.clock = clock;
  }

  /** The file that holds {@code key}'s cursor. */
  public Path fileOf(String key) {
    return directory.resolve(key + ".json");
  }

  @Override
  public Optional<Mark> load(String key) {
    Path file = fileOf(key);
    try {
      JsonNode cursor = JSON.readTree(Files.readAllBytes(file));
      return Optional.of(markOf(cursor.path("mark")));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "event=cursor_unreadable key={} file={} error=\"{}\" action=start_over",
          key,
          file,
          e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public synchronized void commit(String key, Mark mark) throws CheckpointException {
    Path file = fileOf(key);
    Path temporary = directory.resolve(key + ".json.tmp");
    ObjectNode cursor = JSON.createObjectNode();
    cursor.set("mark", jsonOf(mark));
    cursor.put("committed_at", Instant.now(clock).toString());
    try {
      Files.createDirectories(directory);
      try (FileChannel channel =
          FileChannel.open(
              temporary,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        channel.write(java.nio.ByteBuffer.wrap(JSON.writeValueAsBytes(cursor)));
        channel.force(true);
      }
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
      syncDirectory();
    } catch (IOException e) {
      throw new CheckpointException("writing cursor " + file + " failed: " + e.getMessage(), e);
    }
  }

  private void syncDirectory() {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory for sync; the rename itself is still atomic.
      LOG.debug(
          "event=cursor_directory_sync_skipped directory={} error={}", directory, e.toString());
    }
  }

  private static JsonNode jsonOf(Mark mark) {
    ObjectNode node = JSON.createObjectNode();
    if (mark instanceof FileMark file) {
      node.put("type", "file");
      node.put("changed_at", file.changedAt().toString());
      node.put("path", file.path());
      return node;
    }
    throw new IllegalArgumentException("no cursor form for " + mark.getClass().getSimpleName());
  }

  private static Mark markOf(JsonNode node) throws IOException {
    String type = node.path("type").asText();
    if (type.equals("file")) {
      return new FileMark(
          Instant.parse(node.required("changed_at").asText()), node.required("path").asText());
    }
    throw new IOException("unknown mark type \"" + type + "\"");
  }
}
