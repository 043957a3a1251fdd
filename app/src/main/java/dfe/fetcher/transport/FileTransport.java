package dfe.fetcher.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: one {@code <directory>/<topic>.ndjson} per topic, one message value per
 * line, appended. A batch is acknowledged once every line is written and the files it touched are
 * fsynced. Keys and headers are not kept: the value alone is the line, as a consumer of the topic
 * would read it. Writes to one file are serialised, so concurrent units sharing a topic interleave
 * whole lines only.
 */
public final class FileTransport implements Transport {

  private static final Logger LOG = LoggerFactory.getLogger(FileTransport.class);

  private final Path directory;
  private final Map<String, FileChannel> channels = new HashMap<>();

  public FileTransport(Path directory) {
    this.directory = directory;
  }

  /** The file a topic lands in. */
  public Path fileOf(String topic) {
    return directory.resolve(topic + ".ndjson");
  }

  @Override
  public synchronized CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    Map<FileChannel, Long> sizesBefore = new HashMap<>();
    Set<FileChannel> touched = new LinkedHashSet<>();
    String topic = null;
    try {
      for (OutboundRecord record : batch) {
        topic = record.topic();
        FileChannel channel = channelOf(topic);
        if (!sizesBefore.containsKey(channel)) {
          sizesBefore.put(channel, channel.size());
        }
        writeFully(channel, ByteBuffer.wrap(record.value()));
        writeFully(channel, ByteBuffer.wrap(NEWLINE));
        touched.add(channel);
      }
      for (FileChannel channel : touched) {
        channel.force(false);
      }
      return CompletableFuture.completedFuture(SendResult.ALL_ACKNOWLEDGED);
    } catch (IOException e) {
      cutBack(sizesBefore);
      return CompletableFuture.failedFuture(
          new TransportException(
              "writing topic " + topic + " to " + fileOf(topic) + " failed: " + e.getMessage(), e));
    }
  }

  @Override
  public boolean isReady() {
    if (Files.exists(directory)) {
      return Files.isDirectory(directory) && Files.isWritable(directory);
    }
    return canCreate(directory);
  }

  @Override
  public synchronized void close() {
    for (FileChannel channel : channels.values()) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Everything acknowledged was fsynced already; nothing is lost by a failed close.
      }
    }
    channels.clear();
  }

  private static final byte[] NEWLINE = {'\n'};

  private FileChannel channelOf(String topic) throws IOException {
    FileChannel channel = channels.get(topic);
    if (channel == null || !channel.isOpen()) {
      Files.createDirectories(directory);
      Path file = fileOf(topic);
      if (Files.exists(file)) {
        try (FileChannel repair =
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          dropTornLastLine(repair, file);
        }
      }
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      channels.put(topic, channel);
    }
    return channel;
  }

  /** Removes what a failed batch wrote, so no half line stays behind for a consumer to trip on. */
  private static void cutBack(Map<FileChannel, Long> sizesBefore) {
    sizesBefore.forEach(
        (channel, size) -> {
          try {
            channel.truncate(size);
          } catch (IOException ignored) {
            // The batch is reported failed either way; a consumer skips a partial line.
          }
        });
  }

  /**
   * A crash in the middle of a write leaves a last line without its newline; the next append would
   * be glued to it and lost with it. That partial line was never acknowledged, so it is cut off
   * before anything is appended.
   */
  private static void dropTornLastLine(FileChannel channel, Path file) throws IOException {
    long size = channel.size();
    if (size == 0 || lastByte(channel, size - 1) == '\n') {
      return;
    }
    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    long end = size;
    while (end > 0) {
      long start = Math.max(0, end - chunk.capacity());
      chunk.clear().limit((int) (end - start));
      while (chunk.hasRemaining() && channel.read(chunk, start + chunk.position()) >= 0) {
        // read the whole chunk
      }
      for (int i = (int) (end - start) - 1; i >= 0; i--) {
        if (chunk.get(i) == '\n') {
          truncateTo(channel, file, start + i + 1, size);
          return;
        }
      }
      end = start;
    }
    truncateTo(channel, file, 0, size);
  }

  private static void truncateTo(FileChannel channel, Path file, long length, long size)
      throws IOException {
    channel.truncate(length);
    channel.force(false);
    LOG.warn(
        "event=torn_line_dropped file={} bytes={} note=\"an unacknowledged partial line\"",
        file,
        size - length);
  }

  private static byte lastByte(FileChannel channel, long position) throws IOException {
    ByteBuffer one = ByteBuffer.allocate(1);
    channel.read(one, position);
    return one.get(0);
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static boolean canCreate(Path directory) {
    Path parent = directory.toAbsolutePath().getParent();
    while (parent != null && !Files.exists(parent)) {
      parent = parent.getParent();
    }
    return parent != null && Files.isDirectory(parent) && Files.isWritable(parent);
  }
}
