package dfe.fetcher.config;

import java.util.List;
import java.util.Objects;

/**
 * {@code dump} of a file unit: each matching file is read whole as one snapshot.
 *
 * @param paths glob patterns ({@link java.nio.file.FileSystem#getPathMatcher} {@code glob:}
 *     syntax), absolute: a relative pattern in the file is resolved against its directory
 * @param decoder how each file is decoded (default {@link FileDecoder#AUTO})
 */
public record FileDump(List<String> paths, FileDecoder decoder) {

  public FileDump {
    paths = List.copyOf(paths);
    Objects.requireNonNull(decoder, "decoder");
  }
}
