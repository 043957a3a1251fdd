package dfe.fetcher.core.envelope;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A record as the provider sent it: the UTF-8 bytes of exactly one JSON value, embedded in a row
 * frame without being re-serialised.
 *
 * <p>Two records are the same JSON value when their {@link #digest() canonical digests} are equal:
 * key order, insignificant whitespace and the spelling of numbers ({@code 1}, {@code 1.0}, {@code
 * 1e0}) do not change the digest. {@link #equals(Object)} compares bytes.
 */
public final class RawRecord {

  private final byte[] json;
  private final boolean checkedObject;
  private final boolean withoutEnrichmentNames;
  // Computed on first use; a race computes the same value twice, like String.hashCode.
  private long digest;
  private boolean digestKnown;

  private RawRecord(
      byte[] json,
      boolean checkedObject,
      boolean withoutEnrichmentNames,
      long digest,
      boolean digestKnown) {
    this.json = Objects.requireNonNull(json, "json");
    this.checkedObject = checkedObject;
    this.withoutEnrichmentNames = withoutEnrichmentNames;
    this.digest = digest;
    this.digestKnown = digestKnown;
  }

  /**
   * Wraps the bytes of one JSON value. The caller hands the array over and must not change it. The
   * bytes are not parsed here; {@link #digest()} fails on bytes that are not one JSON value.
   */
  public static RawRecord of(byte[] json) {
    return new RawRecord(json, false, false, 0, false);
  }

  /**
   * Wraps bytes the caller has checked to be exactly one JSON object, starting with its {@code {}
   * and ending with its {@code }}, nothing around it. The enrichment then splices its fields in
   * without parsing the record again. Bytes that break this promise land wrong, so only a source
   * that validated or wrote the bytes itself may use it.
   */
  public static RawRecord ofCheckedObject(byte[] json) {
    return new RawRecord(json, true, false, 0, false);
  }

  /**
   * As {@link #ofCheckedObject}, and the caller has also checked that no top-level name of the
   * object begins with {@code _source} or {@code _timestamp_}, the prefixes of the fields the
   * enrichment adds, nor is written with an escape: the enrichment then appends its fields without
   * looking at the bytes at all. A source that wrote the names itself, or scanned them while it
   * validated the record, may use it.
   */
  public static RawRecord ofCheckedObjectWithoutEnrichmentNames(byte[] json) {
    return new RawRecord(json, true, true, 0, false);
  }

  /** Wraps the UTF-8 encoding of {@code json}. */
  public static RawRecord of(String json) {
    return of(json.getBytes(StandardCharsets.UTF_8));
  }

  /** A record whose digest was computed while it was parsed, so it is not parsed twice. */
  static RawRecord withDigest(byte[] json, long digest) {
    return new RawRecord(json, false, false, digest, true);
  }

  /** Whether the bytes were {@link #ofCheckedObject checked} to be one JSON object, trimmed. */
  public boolean isCheckedObject() {
    return checkedObject;
  }

  /**
   * Whether the bytes were {@link #ofCheckedObjectWithoutEnrichmentNames checked} to hold no
   * top-level name the enrichment's fields could collide with.
   */
  public boolean isWithoutEnrichmentNames() {
    return withoutEnrichmentNames;
  }

  /** The bytes, not copied: callers must not change them. */
  public byte[] bytes() {
    return json;
  }

  /** Length in bytes, the figure the oversize policy compares. */
  public int length() {
    return json.length;
  }

  /** The 64-bit digest of this record's canonical JSON form. */
  public long digest() {
    if (!digestKnown) {
      digest = CanonicalDigest.of(json);
      digestKnown = true;
    }
    return digest;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RawRecord that && Arrays.equals(json, that.json);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(json);
  }

  @Override
  public String toString() {
    return new String(json, StandardCharsets.UTF_8);
  }
}
