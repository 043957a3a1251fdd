package dfe.fetcher.file.dump;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One of a unit's {@code paths}: a glob split into the directory to walk (its leading segments
 * without glob characters) and the pattern the rest of a file's path must match.
 *
 * <p>Syntax, matched against {@code /}-separated paths:
 *
 * <ul>
 *   <li>{@code *} any characters within one path segment; {@code ?} one character but {@code /}
 *   <li>{@code **} as a whole segment ({@code a/**}{@code /b}) zero or more directories, so {@code
 *       data/**}{@code /*.ndjson} matches {@code data/x.ndjson} as well as {@code
 *       data/a/b/x.ndjson} (Java's glob {@code PathMatcher} requires at least one directory there);
 *       elsewhere {@code **} matches any characters including {@code /}
 *   <li>{@code [abc]}, {@code [a-z]}, {@code [!a-z]} one character of (or not of) a set
 *   <li>{@code {ndjson,jsonl}} one of the alternatives (not nested)
 *   <li>{@code \} makes the next character literal
 * </ul>
 *
 * A relative glob resolves against the unit's base directory; an absolute one stands alone.
 */
public final class PathGlob {

  private static final String GLOB_CHARACTERS = "*?[{\\";
  private static final String REGEX_CHARACTERS = "\\.^$|?*+()[]{}";

  private final String glob;
  private final Path walkRoot;
  private final Pattern rest;
  private final int maxDepth;

  private PathGlob(String glob, Path walkRoot, Pattern rest, int maxDepth) {
    this.glob = glob;
    this.walkRoot = walkRoot;
    this.rest = rest;
    this.maxDepth = maxDepth;
  }

  /**
   * Compiles {@code glob}, resolving it against {@code baseDirectory}.
   *
   * @throws IllegalArgumentException naming the glob when it is empty or malformed
   */
  public static PathGlob compile(String glob, Path baseDirectory) {
    if (glob.isBlank()) {
      throw new IllegalArgumentException("a path glob is empty");
    }
    List<String> segments = Arrays.asList(glob.split("/", -1));
    int literalSegments = 0;
    while (literalSegments < segments.size() && !hasGlobCharacter(segments.get(literalSegments))) {
      literalSegments++;
    }
    String prefix = String.join("/", segments.subList(0, literalSegments));
    if (prefix.isEmpty() && glob.startsWith("/")) {
      prefix = "/";
    }
    String rest = String.join("/", segments.subList(literalSegments, segments.size()));
    Pattern pattern;
    try {
      pattern = Pattern.compile(toRegex(rest), Pattern.DOTALL);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "path glob \"" + glob + "\" is malformed: " + e.getMessage(), e);
    }
    Path walkRoot = baseDirectory.resolve(prefix).toAbsolutePath().normalize();
    // Walk no deeper than the pattern can reach: each "/" of the rest is one directory level.
    int maxDepth =
        rest.isEmpty()
            ? 0
            : rest.contains("**")
                ? Integer.MAX_VALUE
                : (int) rest.chars().filter(c -> c == '/').count() + 1;
    return new PathGlob(glob, walkRoot, pattern, maxDepth);
  }

  /** The glob as configured. */
  public String glob() {
    return glob;
  }

  /** The directory to walk (or, for a glob without glob characters, the one file it names). */
  public Path walkRoot() {
    return walkRoot;
  }

  /** How many directory levels below {@link #walkRoot} a matching file can lie. */
  public int maxDepth() {
    return maxDepth;
  }

  /** Whether {@code file}, found under {@link #walkRoot}, matches. */
  public boolean matches(Path file) {
    Path relative = walkRoot.relativize(file);
    StringBuilder path = new StringBuilder();
    for (Path name : relative) {
      if (path.length() > 0) {
        path.append('/');
      }
      path.append(name);
    }
    return rest.matcher(path).matches();
  }

  private static boolean hasGlobCharacter(String segment) {
    for (int i = 0; i < segment.length(); i++) {
      if (GLOB_CHARACTERS.indexOf(segment.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static String toRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    boolean inGroup = false;
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i++);
      switch (c) {
        case '\\' -> {
          if (i == glob.length()) {
            throw new IllegalArgumentException("it ends with an escape character");
          }
          appendLiteral(regex, glob.charAt(i++));
        }
        case '*' -> {
          int stars = 1;
          while (i < glob.length() && glob.charAt(i) == '*') {
            stars++;
            i++;
          }
          int start = i - stars;
          boolean wholeSegment =
              stars >= 2
                  && (start == 0 || glob.charAt(start - 1) == '/')
                  && i < glob.length()
                  && glob.charAt(i) == '/';
          if (wholeSegment) {
            regex.append("(?:.*/)?"); // zero or more directories
            i++;
          } else {
            regex.append(stars >= 2 ? ".*" : "[^/]*");
          }
        }
        case '?' -> regex.append("[^/]");
        case '[' -> i = appendBracketExpression(glob, i, regex);
        case '{' -> {
          if (inGroup) {
            throw new IllegalArgumentException("groups {...} cannot be nested");
          }
          inGroup = true;
          regex.append("(?:");
        }
        case '}' -> {
          if (inGroup) {
            inGroup = false;
            regex.append(')');
          } else {
            appendLiteral(regex, c);
          }
        }
        case ',' -> {
          if (inGroup) {
            regex.append('|');
          } else {
            appendLiteral(regex, c);
          }
        }
        default -> appendLiteral(regex, c);
      }
    }
    if (inGroup) {
      throw new IllegalArgumentException("a group {... is not closed");
    }
    return regex.toString();
  }

  /**
   * Appends the bracket expression whose content starts at {@code from}; returns the index past its
   * ']'.
   */
  private static int appendBracketExpression(String glob, int from, StringBuilder regex) {
    int i = from;
    // Like Java's glob, a set never matches the separator.
    regex.append("[[^/]&&[");
    if (i < glob.length() && (glob.charAt(i) == '!' || glob.charAt(i) == '^')) {
      regex.append('^');
      i++;
    }
    int contentStart = i;
    while (i < glob.length() && glob.charAt(i) != ']') {
      char c = glob.charAt(i++);
      if (c == '/') {
        throw new IllegalArgumentException("a set [...] cannot hold '/'");
      }
      if (c == '-' && i - 1 > contentStart && i < glob.length() && glob.charAt(i) != ']') {
        regex.append('-'); // a range
      } else if (Character.isLetterOrDigit(c)) {
        regex.append(c); // a backslash before a letter would make a regex class such as \d
      } else {
        regex.append('\\').append(c);
      }
    }
    if (i == glob.length()) {
      throw new IllegalArgumentException("a set [... is not closed");
    }
    if (i == contentStart) {
      throw new IllegalArgumentException("a set [] is empty");
    }
    regex.append("]]");
    return i + 1;
  }

  private static void appendLiteral(StringBuilder regex, char c) {
    if (REGEX_CHARACTERS.indexOf(c) >= 0) {
      regex.append('\\');
    }
    regex.append(c);
  }
}
