/**
 * File tail units ({@code units[].tail}): growing files followed through rotation, each line a
 * record on the connection's topic, each file's offset in the unit's {@link
 * dfe.fetcher.core.row.FileTailMark}. {@link dfe.fetcher.file.tail.FileTailSource} is the source;
 * the other classes each hold one of its jobs (which files, which is which, where each stands, how
 * a line becomes a record).
 */
package dfe.fetcher.file.tail;
