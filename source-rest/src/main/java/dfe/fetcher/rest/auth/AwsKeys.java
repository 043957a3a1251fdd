package dfe.fetcher.rest.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * AWS keys as revealed for one signature: an access key id, its secret, and the session token of
 * temporary keys. Never printed.
 */
record AwsKeys(String accessKeyId, String secretAccessKey, Optional<String> sessionToken) {

  AwsKeys {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
  }

  @Override
  public String toString() {
    return "AwsKeys[***]";
  }
}
