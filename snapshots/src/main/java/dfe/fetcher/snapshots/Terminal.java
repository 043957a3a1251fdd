package dfe.fetcher.snapshots;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The standard streams a command reads and writes.
 *
 * @param in standard input, read when a file argument is {@code -}
 * @param out results, for scripts to read
 * @param err diagnostics for people
 */
public record Terminal(InputStream in, PrintStream out, PrintStream err) {}
