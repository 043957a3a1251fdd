package dfe.fetcher.snapshots.apply;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names {@code apply} gives things in the target database: the target table ({@code NAME} or
 * {@code SCHEMA.NAME}), a snapshot's staging table {@code <table>__stage_<short id>} beside it, and
 * the two bookkeeping tables of the schema. Every name is quoted where it is used.
 */
record SqlNames(String schema, String table) {

  /** What {@code apply} last swapped into each target table. */
  static final String STATE_TABLE = "dfe_fetcher_apply";

  /** The staging tables that exist, and the snapshot each holds. */
  static final String STAGING_TABLE = "dfe_fetcher_apply_staging";

  private static final int MAX_IDENTIFIER = 63;
  private static final String STAGE_INFIX = "__stage_";
  private static final int SHORT_ID = 12;
  private static final Pattern PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  /**
   * Parses {@code --table}.
   *
   * @throws IllegalArgumentException when it is not {@code NAME} or {@code SCHEMA.NAME}
   */
  static SqlNames parse(String qualified) {
    String[] parts = qualified.split("\\.", -1);
    if (parts.length > 2) {
      throw new IllegalArgumentException("--table " + qualified + ": expected NAME or SCHEMA.NAME");
    }
    for (String part : parts) {
      if (!PART.matcher(part).matches()) {
        throw new IllegalArgumentException(
            "--table " + qualified + ": \"" + part + "\" is not a name (letters, digits, _)");
      }
    }
    String table = parts[parts.length - 1];
    if (table.length() + STAGE_INFIX.length() + SHORT_ID > MAX_IDENTIFIER) {
      throw new IllegalArgumentException(
          "--table "
              + qualified
              + ": at most "
              + (MAX_IDENTIFIER - STAGE_INFIX.length() - SHORT_ID)
              + " characters, so its staging tables' names fit PostgreSQL's 63");
    }
    return new SqlNames(parts.length == 2 ? parts[0] : "public", table);
  }

  String target() {
    return qualify(table);
  }

  String state() {
    return qualify(STATE_TABLE);
  }

  String staging() {
    return qualify(STAGING_TABLE);
  }

  /** The key the bookkeeping tables know the target by: {@code schema.table}. */
  String targetKey() {
    return schema + "." + table;
  }

  /** The unquoted name of a snapshot's staging table. */
  String stageName(String snapshotId) {
    return table + STAGE_INFIX + shortId(snapshotId);
  }

  String qualify(String name) {
    return identifier(schema) + "." + identifier(name);
  }

  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** The last 12 hex digits of a UUID (the random part of a UUIDv7), else of a SHA-256. */
  static String shortId(String snapshotId) {
    if (UUID.matcher(snapshotId).matches()) {
      return snapshotId.substring(snapshotId.length() - SHORT_ID).toLowerCase(Locale.ROOT);
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(snapshotId.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash).substring(0, SHORT_ID);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }
}
