package dfe.fetcher.connect;

import dfe.fetcher.runtime.config.ConfigLoader;
import dfe.fetcher.source.config.BoundSecrets;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.util.List;

/**
 * Refuses a secret written literally into {@value ConnectorSettings#CONFIG}. Connect hands a
 * connector's configuration back as written to whoever may call {@code GET
 * /connectors/<name>/config}; the {@code PASSWORD} type hides it only in logs and in {@code
 * validate}. So a secret setting there must be a reference ({@code env:NAME}, {@code file:/path})
 * that every worker resolves itself. An empty literal (an H2 database's {@code password: ""}) shows
 * nothing and is taken. The problem names the setting's place and path, never its value.
 */
final class LiteralSecrets implements ConfigLoader.SecretsCheck {

  static final LiteralSecrets REFUSED = new LiteralSecrets();

  private LiteralSecrets() {}

  @Override
  public void check(List<BoundSecrets.Entry> secrets, Problems problems) {
    for (BoundSecrets.Entry entry : secrets) {
      if (entry.secret().kind() == Secret.Kind.LITERAL && !isEmpty(entry.secret())) {
        problems.add(
            entry.origin(),
            entry.path(),
            "a literal secret is not allowed in "
                + ConnectorSettings.CONFIG
                + ": Connect returns it as written to anyone who may read GET"
                + " /connectors/<name>/config; give env:NAME or file:/path (resolved on each"
                + " worker), or put the configuration in "
                + ConnectorSettings.CONFIG_FILE);
      }
    }
  }

  private static boolean isEmpty(Secret literal) {
    try {
      return literal.reveal().isEmpty();
    } catch (SecretUnavailableException e) {
      return false; // a literal its use cannot carry holds something
    }
  }
}
