package dfe.fetcher.rest.http;

/**
 * What the JDK's HTTP client takes as a header value (RFC 9110 field-value: visible characters,
 * spaces, tabs and Latin-1's upper half), checked before a value is handed to it: the client's own
 * refusal is an {@link IllegalArgumentException} whose message quotes the value, and a value may be
 * a credential.
 */
public final class HeaderValues {

  private HeaderValues() {}

  /** Whether {@code value} can be sent as a header value as it is. */
  public static boolean canCarry(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c > 0xFF || c == 0x7F || (c < 0x20 && c != '\t')) {
        return false;
      }
    }
    return true;
  }
}
