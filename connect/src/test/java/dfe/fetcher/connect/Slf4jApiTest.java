package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plugin logs through the worker's slf4j-api (the plugin directory leaves it out), and Kafka
 * Connect 4.3.1's distribution ships slf4j-api 1.7.36: a call to the SLF4J 2 fluent API ({@code
 * Logger.atLevel}, {@code atInfo()}, ...) links against nothing there and throws {@code
 * NoSuchMethodError}. The fault campaign's Connect workers (benchmarks/tools/pom.xml, as the
 * distribution) failed every successful tick at its {@code event=tick_done} line that way. So no
 * class of the fetcher the plugin carries may name the fluent API's types.
 */
class Slf4jApiTest {

  /** Types and methods SLF4J 1.7 does not have, as they appear in a class file. */
  private static final List<String> SLF4J_2_ONLY =
      List.of("org/slf4j/spi/LoggingEventBuilder", "isEnabledForLevel", "makeLoggingEventBuilder");

  @Test
  void noClassOfTheFetcherCallsTheFluentApi() throws IOException {
    List<String> scanned = new ArrayList<>();
    List<String> offending = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry);
      // The reactor's modules: their target/classes or the jar `package` left in target/.
      if (!entry.contains("/target/") || entry.contains("test-classes")) {
        continue;
      }
      if (Files.isDirectory(path)) {
        try (Stream<Path> files = Files.walk(path)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
            String name = path.relativize(file).toString();
            check(name, Files.readAllBytes(file), scanned, offending);
          }
        }
      } else if (entry.endsWith(".jar")) {
        try (JarFile jar = new JarFile(path.toFile())) {
          Enumeration<JarEntry> entries = jar.entries();
          while (entries.hasMoreElements()) {
            JarEntry jarEntry = entries.nextElement();
            if (jarEntry.getName().endsWith(".class")) {
              try (InputStream in = jar.getInputStream(jarEntry)) {
                check(jarEntry.getName(), in.readAllBytes(), scanned, offending);
              }
            }
          }
        }
      }
    }
    assertThat(scanned)
        .as("the runtime module's classes are on the test class path")
        .contains("dfe/fetcher/runtime/tick/UnitRunner.class");
    assertThat(offending).as("classes calling the SLF4J 2 fluent API").isEmpty();
  }

  private static void check(String name, byte[] bytes, List<String> scanned, List<String> out) {
    if (!name.startsWith("dfe/fetcher/")) {
      return;
    }
    scanned.add(name);
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    for (String symbol : SLF4J_2_ONLY) {
      if (text.contains(symbol)) {
        out.add(name + " (" + symbol + ")");
      }
    }
  }
}
