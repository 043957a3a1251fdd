/**
 * {@code sources.file} dump units: every file the unit's globs match, read once per change, one
 * snapshot per file.
 *
 * <p>{@link dfe.fetcher.file.dump.FileDumpSource} is the unit; {@link
 * dfe.fetcher.file.dump.FileDumpSpec} is what the configuration binds it to. Files are listed by
 * glob, ordered by (change time, path), decoded as NDJSON, a JSON array or CSV (each possibly
 * gzipped), and streamed: memory does not grow with the size of a file, only with the size of its
 * largest record.
 */
package dfe.fetcher.file.dump;
