package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The SQL each dialect writes for a store. */
class DialectSqlTest {

  private static final String QUERY = "SELECT * FROM events";

  @Test
  void aColumnNamedLikeAKeywordIsQuotedPerDialect() {
    assertThat(Dialect.POSTGRES.quote("select")).isEqualTo("\"select\"");
    assertThat(Dialect.MYSQL.quote("select")).isEqualTo("`select`");
    assertThat(Dialect.MSSQL.quote("select")).isEqualTo("[select]");
    assertThat(Dialect.ORACLE.quote("select")).isEqualTo("\"select\"");
  }

  @Test
  void aQuoteInsideANameIsDoubled() {
    assertThat(Dialect.POSTGRES.quote("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(Dialect.MYSQL.quote("it`s")).isEqualTo("`it``s`");
    assertThat(Dialect.MSSQL.quote("a]b")).isEqualTo("[a]]b]");
    assertThat(Dialect.MSSQL.quote("a[b")).isEqualTo("[a[b]");
  }

  @Test
  void theFirstPageIsOrderedByTheKeyAndCappedWithLimit() {
    assertThat(Dialect.POSTGRES.page(QUERY, List.of("id"), false, false, 500))
        .isEqualTo("SELECT * FROM (SELECT * FROM events) dfe_q ORDER BY dfe_q.\"id\" LIMIT 500");
    assertThat(Dialect.MYSQL.page(QUERY, List.of("select"), false, false, 10))
        .isEqualTo("SELECT * FROM (SELECT * FROM events) dfe_q ORDER BY dfe_q.`select` LIMIT 10");
  }

  @Test
  void oracleAndGenericCapWithFetchFirst() {
    assertThat(Dialect.ORACLE.page(QUERY, List.of("id"), false, false, 500))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q ORDER BY dfe_q.\"id\""
                + " FETCH FIRST 500 ROWS ONLY");
    assertThat(Dialect.GENERIC.page(QUERY, List.of("id"), false, false, 7))
        .endsWith(" ORDER BY dfe_q.\"id\" FETCH FIRST 7 ROWS ONLY");
  }

  @Test
  void sqlServerCapsWithOffsetFetch() {
    assertThat(Dialect.MSSQL.page(QUERY, List.of("id"), false, false, 500))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q ORDER BY dfe_q.[id]"
                + " OFFSET 0 ROWS FETCH NEXT 500 ROWS ONLY");
  }

  @Test
  void laterPagesCompareRowValuesWhereTheDialectHasThem() {
    assertThat(Dialect.POSTGRES.page(QUERY, List.of("at", "id"), true, false, 100))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q"
                + " WHERE (dfe_q.\"at\", dfe_q.\"id\") > (?, ?)"
                + " ORDER BY dfe_q.\"at\", dfe_q.\"id\" LIMIT 100");
    assertThat(Dialect.POSTGRES.afterKeyParameters(2)).containsExactly(0, 1);
  }

  @Test
  void withoutRowValuesTheComparisonIsExpandedAndEachKeyValueBoundWhereItIsNamed() {
    assertThat(Dialect.MSSQL.page(QUERY, List.of("a", "b", "c"), true, false, 100))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q"
                + " WHERE (dfe_q.[a] > ? OR (dfe_q.[a] = ? AND dfe_q.[b] > ?)"
                + " OR (dfe_q.[a] = ? AND dfe_q.[b] = ? AND dfe_q.[c] > ?))"
                + " ORDER BY dfe_q.[a], dfe_q.[b], dfe_q.[c] OFFSET 0 ROWS FETCH NEXT 100 ROWS ONLY");
    assertThat(Dialect.MSSQL.afterKeyParameters(3)).containsExactly(0, 0, 1, 0, 1, 2);
    assertThat(Dialect.ORACLE.afterKeyParameters(2)).containsExactly(0, 0, 1);
  }

  @Test
  void aSingleColumnKeyIsOneComparisonInEveryDialect() {
    for (Dialect dialect : Dialect.values()) {
      assertThat(dialect.page(QUERY, List.of("id"), true, false, 1))
          .contains(" WHERE dfe_q." + dialect.quote("id") + " > ? ORDER BY");
      assertThat(dialect.afterKeyParameters(1)).containsExactly(0);
    }
  }

  @Test
  void theSettleConditionBoundsTheFirstKeyColumnAfterTheKeyComparison() {
    assertThat(Dialect.POSTGRES.page(QUERY, List.of("at", "id"), true, true, 100))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q"
                + " WHERE (dfe_q.\"at\", dfe_q.\"id\") > (?, ?) AND dfe_q.\"at\" < ?"
                + " ORDER BY dfe_q.\"at\", dfe_q.\"id\" LIMIT 100");
    assertThat(Dialect.H2.page(QUERY, List.of("at"), false, true, 100))
        .isEqualTo(
            "SELECT * FROM (SELECT * FROM events) dfe_q WHERE dfe_q.\"at\" < ?"
                + " ORDER BY dfe_q.\"at\" LIMIT 100");
  }

  @Test
  void theCountWrapsTheQuery() {
    assertThat(Dialect.POSTGRES.count(QUERY))
        .isEqualTo("SELECT COUNT(*) FROM (SELECT * FROM events) dfe_q");
  }

  @ParameterizedTest
  @CsvSource({
    "jdbc:postgresql://127.0.0.1:5432/crm, postgres",
    "JDBC:PostgreSQL://host/db, postgres",
    "jdbc:mysql://host/db, mysql",
    "jdbc:mariadb://host/db, mysql",
    "jdbc:sqlite:/tmp/x.db, sqlite",
    "jdbc:h2:mem:warehouse, h2",
    "jdbc:sqlserver://host;databaseName=db, mssql",
    "jdbc:oracle:thin:@host:1521/svc, oracle",
    "jdbc:clickhouse://host:8123/db, clickhouse",
    "jdbc:ch://host/db, clickhouse",
    "jdbc:db2://host:50000/db, generic",
  })
  void theDialectIsDetectedFromTheUrl(String url, String dialect) {
    assertThat(Dialect.ofUrl(url).configName()).isEqualTo(dialect);
  }

  @Test
  void everyDialectIsNamedInConfiguration() {
    assertThat(Dialect.names())
        .containsExactly(
            "postgres", "mysql", "sqlite", "h2", "mssql", "oracle", "clickhouse", "generic");
    for (Dialect dialect : Dialect.values()) {
      assertThat(Dialect.named(dialect.configName())).contains(dialect);
    }
    assertThat(Dialect.named("postgresql")).isEmpty();
  }
}
