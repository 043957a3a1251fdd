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

/**
 * The embedded default: one {@code <directory>/<topic>.ndjson} per topic, one message value per
 * line, appended. A batch is acknowledged once every line is written and the files it touched are
 * fsynced. Keys and headers are not kept: the value alone is the line, as a consumer of the topic
 * would read it. Writes to one file are serialised, so concurrent units sharing a topic interleave
 * whole lines only.
 */
public final class FileTransport implements Transport {

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
      channel =
          FileChannel.open(
              fileOf(topic),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND);
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
