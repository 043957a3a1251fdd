package dfe.fetcher.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool's only way to the database: it opens connections through the JDBC driver itself, so the
 * pool never holds the URL (HikariCP logs its {@code jdbcUrl} at DEBUG with a user-info password in
 * clear), and every failure it hands the pool is cleaned by the connection's {@link Redaction} and
 * carries no cause (drivers put the URL's host part, user-info and all, into an {@code
 * UnknownHostException}).
 */
final class RedactingDataSource implements DataSource {

  private final String url;
  private final Optional<String> user;
  private final Map<String, String> properties;
  private final Redaction redaction;
  private volatile String password;
  private volatile int loginTimeoutSecs;

  RedactingDataSource(
      String url,
      Optional<String> user,
      String password,
      Map<String, String> properties,
      Redaction redaction) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.properties = Map.copyOf(properties);
    this.redaction = redaction;
  }

  /** The password the next connection opens with: a rotated secret takes effect there. */
  void password(String password) {
    this.password = password;
  }

  @Override
  public Connection getConnection() throws SQLException {
    Properties info = new Properties();
    info.putAll(properties);
    user.ifPresent(name -> info.setProperty("user", name));
    String current = password;
    if (current != null) {
      info.setProperty("password", current);
    }
    try {
      Driver driver = DriverManager.getDriver(url);
      Connection connection = driver.connect(url, info);
      if (connection == null) {
        throw new SQLException("no driver accepts the URL", "08001");
      }
      return connection;
    } catch (SQLException e) {
      throw new SQLException(redaction.clean(e.getMessage()), e.getSQLState(), e.getErrorCode());
    }
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the pool logs in with the connection's settings");
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    // Drivers report through their own logging.
  }

  @Override
  public void setLoginTimeout(int seconds) {
    loginTimeoutSecs = seconds;
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeoutSecs;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new SQLException("not a wrapper of " + type.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }

  @Override
  public String toString() {
    return "RedactingDataSource[" + JdbcUrls.masked(url) + "]";
  }
}
