package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every dialect's type mapping must do, run against a real database of each engine: a table
 * {@code types} holding one column per type the dialect maps (a row of values, then a row of nulls)
 * dumps as exactly the expected JSON text, and the JVM's default zone changes no value. A dialect's
 * own cases (zones of its time types, aggregates) are tests of the subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DialectMappingContract {

  /**
   * What a Java object's {@code toString} looks like where a value should be: {@code
   * org.postgresql.jdbc.PgSQLXML@1a2b3c}, or H2's {@code clob0: 'text'}.
   */
  static final Pattern OBJECT_STRING =
      Pattern.compile("[a-z]+(\\.[a-z0-9]+)+\\.[A-Z]\\w*@[0-9a-f]+|clob\\d+: ");

  /** The engine's database, created for the class and dropped after it. */
  TestDatabase database;

  abstract TestDatabase.Engine engine();

  /** The statements that create {@code types} (with an {@code id} column) and fill it. */
  abstract List<String> tableStatements();

  /** Each row of {@code types} as its exact JSON, in {@code id} order. */
  abstract List<String> expectedRows();

  @BeforeAll
  void createTable() {
    database = TestDatabase.create(engine());
    database.execute(tableStatements().toArray(String[]::new));
  }

  @AfterAll
  void dropDatabase() {
    database.close();
  }

  @Test
  void everyMappedTypeBecomesItsExactJson() throws Exception {
    assertThat(
            Dumps.records(database, TestDatabase.dump("types", "SELECT * FROM types ORDER BY id")))
        .containsExactlyElementsOf(expectedRows());
  }

  @Test
  void noValueIsAJavaObjectsToString() throws Exception {
    List<String> rows =
        Dumps.records(database, TestDatabase.dump("types", "SELECT * FROM types ORDER BY id"));
    assertThat(rows).isNotEmpty();
    for (String row : rows) {
      assertThat(OBJECT_STRING.matcher(row).find()).as("an object's toString in %s", row).isFalse();
    }
  }

  @Test
  void theJvmsDefaultZoneChangesNoValue() throws Exception {
    DbStore store = TestDatabase.dump("types", "SELECT * FROM types ORDER BY id");
    List<String> newYork = Dumps.recordsInZone(database, store, "America/New_York");
    List<String> kolkata = Dumps.recordsInZone(database, store, "Asia/Kolkata");
    assertThat(newYork).containsExactlyElementsOf(expectedRows());
    assertThat(kolkata).isEqualTo(newYork);
  }
}
