package dfe.fetcher.rest.construct;

import dfe.fetcher.core.row.WindowMark;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The order a manifest's checkpointed items are resumed in: by {@code position}, then by {@code
 * key}. Two positions that both read as numbers compare as numbers ({@code 9 < 10}); two that both
 * read as ISO-8601 times (with an offset, or without one, read as UTC: Office 365's {@code
 * contentCreated}) compare as times; any others as text. Keys compare as text.
 */
final class ItemOrder {

  private ItemOrder() {}

  static int compare(WindowMark.Item a, WindowMark.Item b) {
    int byPosition = comparePositions(a.position(), b.position());
    return byPosition != 0 ? byPosition : a.key().compareTo(b.key());
  }

  static int comparePositions(String a, String b) {
    Optional<BigDecimal> na = number(a);
    Optional<BigDecimal> nb = number(b);
    if (na.isPresent() && nb.isPresent()) {
      return na.get().compareTo(nb.get());
    }
    Optional<Instant> ta = time(a);
    Optional<Instant> tb = time(b);
    if (ta.isPresent() && tb.isPresent()) {
      return ta.get().compareTo(tb.get());
    }
    return a.compareTo(b);
  }

  private static Optional<BigDecimal> number(String text) {
    try {
      return Optional.of(new BigDecimal(text));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Optional<Instant> time(String text) {
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      try {
        return Optional.of(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException again) {
        return Optional.empty();
      }
    }
  }
}
