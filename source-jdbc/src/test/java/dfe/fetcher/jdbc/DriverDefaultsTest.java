package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverDefaultsTest {

  @Test
  void aNetworkDriverGetsKeepAliveAndASocketTimeoutInItsOwnUnit() {
    assertThat(DriverDefaults.with(Dialect.POSTGRES, Map.of()))
        .containsEntry("tcpKeepAlive", "true")
        .containsEntry("socketTimeout", "1800");
    assertThat(DriverDefaults.with(Dialect.MYSQL, Map.of()))
        .containsEntry("tcpKeepAlive", "true")
        .containsEntry("socketTimeout", "1800000");
  }

  @Test
  void theOperatorsPropertiesWin() {
    assertThat(DriverDefaults.with(Dialect.POSTGRES, Map.of("socketTimeout", "60", "ssl", "true")))
        .containsEntry("socketTimeout", "60")
        .containsEntry("ssl", "true")
        .containsEntry("tcpKeepAlive", "true");
  }

  @Test
  void anInProcessEngineGetsNone() {
    assertThat(DriverDefaults.with(Dialect.H2, Map.of())).isEmpty();
  }
}
