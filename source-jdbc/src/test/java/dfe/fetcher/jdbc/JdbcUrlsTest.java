package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What of a JDBC URL may be printed. */
class JdbcUrlsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://crm:s3cret@db:5432/crm | jdbc:postgresql://crm:***@db:5432/crm",
        "jdbc:mysql://root:p%40ss@host/db?ssl=true | jdbc:mysql://root:***@host/db?ssl=true",
        "jdbc:postgresql://db/crm?user=crm&password=s3cret&ssl=true"
            + " | jdbc:postgresql://db/crm?user=crm&password=***&ssl=true",
        "jdbc:postgresql://db/crm?password=s3cret | jdbc:postgresql://db/crm?password=***",
        "jdbc:sqlserver://db;user=sa;pwd=s3cret;databaseName=x"
            + " | jdbc:sqlserver://db;user=sa;pwd=***;databaseName=x",
        "jdbc:sqlserver://db;Password=s3cret | jdbc:sqlserver://db;Password=***",
        "jdbc:h2:mem:w;USER=sa;PASSWORD=s3cret | jdbc:h2:mem:w;USER=sa;PASSWORD=***",
        "jdbc:oracle:thin:scott/tiger@db:1521/svc | jdbc:oracle:thin:scott/***@db:1521/svc",
        "jdbc:mariadb://db/x?sslPassword=k3y&user=u | jdbc:mariadb://db/x?sslPassword=***&user=u",
        "jdbc:postgresql://crm:pa/ss@db/crm | jdbc:postgresql://crm:***@db/crm",
        "jdbc:mysql://db/x?keyStorePassword=k1&trustStorePassword=k2"
            + " | jdbc:mysql://db/x?keyStorePassword=***&trustStorePassword=***",
        "jdbc:mysql://db/x?trustCertificateKeyStorePassword=k3&user=u"
            + " | jdbc:mysql://db/x?trustCertificateKeyStorePassword=***&user=u",
        "jdbc:snowflake://a.b/?private_key_file_pwd=k4 | jdbc:snowflake://a.b/?private_key_file_pwd=***",
        "jdbc:awsathena://x;SecretAccessKey=k5;User=u | jdbc:awsathena://x;SecretAccessKey=***;User=u",
        "jdbc:postgresql://db/crm?user=a@b&password=s | jdbc:postgresql://db/crm?user=a@b&password=***",
      })
  void passwordsAreMasked(String url, String masked) {
    assertThat(JdbcUrls.masked(url)).isEqualTo(masked);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:mariadb://root:s3cret@127.0.0.1:3306/db | s3cret",
        "jdbc:mysql://root:p%40ss@host/db?ssl=true | p%40ss,p@ss",
        "jdbc:postgresql://crm:pa/ss@db/crm?password=other | pa/ss,other",
        "jdbc:sqlserver://db;user=sa;pwd=s3cret;databaseName=x | s3cret",
        "jdbc:oracle:thin:scott/tiger@db:1521/svc | tiger",
        "jdbc:postgresql://127.0.0.1:5432/crm?user=crm | ''",
      })
  void theSecretsAUrlHoldsAreFoundAsWrittenAndDecoded(String url, String secrets) {
    assertThat(JdbcUrls.secrets(url))
        .containsExactlyElementsOf(secrets.isEmpty() ? List.of() : List.of(secrets.split(",")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://127.0.0.1:5432/crm",
        "jdbc:postgresql://crm@db:5432/crm",
        "jdbc:postgresql://db/crm?user=crm&ssl=true&ApplicationName=dfe",
        "jdbc:h2:mem:warehouse;DB_CLOSE_DELAY=-1;INIT=RUNSCRIPT FROM 'x.sql'",
        "jdbc:sqlite:/var/lib/app/data.db",
        "jdbc:oracle:thin:@//host:1521/svc",
        "jdbc:sqlserver://db:1433;databaseName=passwords",
      })
  void aUrlWithoutAPasswordIsUnchanged(String url) {
    assertThat(JdbcUrls.masked(url)).isEqualTo(url);
  }
}
