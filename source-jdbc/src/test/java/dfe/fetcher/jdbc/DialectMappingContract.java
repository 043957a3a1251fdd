package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
  void theJvmsDefaultZoneChangesNoValue() throws Exception {
    DbStore store = TestDatabase.dump("types", "SELECT * FROM types ORDER BY id");
    List<String> newYork = Dumps.recordsInZone(database, store, "America/New_York");
    List<String> kolkata = Dumps.recordsInZone(database, store, "Asia/Kolkata");
    assertThat(newYork).containsExactlyElementsOf(expectedRows());
    assertThat(kolkata).isEqualTo(newYork);
  }
}
