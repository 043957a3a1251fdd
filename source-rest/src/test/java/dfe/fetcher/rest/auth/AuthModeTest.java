package dfe.fetcher.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The registry of auth modes: names as the configuration writes them, and the keys they take. */
class AuthModeTest {

  @Test
  void theKeysAuthTakesAreModeThenEachModesOwnInTheOrderTheyAreRegistered() {
    assertThat(AuthMode.sectionKeys())
        .containsExactly(
            "mode",
            "allow_hosts",
            "other_origins",
            "tls",
            "proxy",
            "token",
            "user",
            "password",
            "key",
            "header",
            "prefix",
            "query_param",
            "token_url",
            "client_id",
            "client_secret",
            "scope",
            "grant",
            "refresh_token",
            "client_auth",
            "audience",
            "private_key",
            "key_id",
            "access_key_id",
            "secret_access_key",
            "session_token",
            "region",
            "service",
            "role_arn",
            "sts_endpoint",
            "role_session_name",
            "headers",
            "login_method",
            "login_path",
            "login_body",
            "token_pointer",
            "token_header",
            "ttl_secs",
            "expires_in_pointer",
            "preset",
            "integration_key",
            "secret_key",
            "signature_version",
            "issuer",
            "subject",
            "assertion_lifetime_secs");
  }

  @Test
  void aModeIsFoundOnlyByTheWordTheConfigurationWrites() {
    assertThat(AuthMode.named("oauth2_client_credentials"))
        .hasValue(AuthMode.OAUTH2_CLIENT_CREDENTIALS);
    assertThat(AuthMode.named("OAUTH2_CLIENT_CREDENTIALS")).isEmpty();
    assertThat(AuthMode.names())
        .containsExactly(
            "none",
            "bearer",
            "basic",
            "api_key",
            "oauth2_client_credentials",
            "sigv4",
            "headers",
            "session_login",
            "signature",
            "jwt_bearer");
  }

  @Test
  void eachModeBindsCredentialsOfItsOwnMode() {
    for (AuthMode mode : AuthMode.values()) {
      assertThat(mode.keys()).doesNotContain("mode");
      assertThat(mode.keys()).endsWith("allow_hosts", "other_origins", "tls", "proxy");
    }
    assertThat(Credentials.none().mode()).isEqualTo(AuthMode.NONE);
  }
}
