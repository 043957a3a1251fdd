package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code sigv4}: every request signed with AWS Signature Version 4 ({@link SigV4Signer}) for {@code
 * region} and {@code service}, with the instance's keys or, given {@code role_arn}, with the
 * temporary keys STS AssumeRole hands for that role ({@link AssumeRole}), kept in the connection's
 * {@link TokenCache} until shortly before they expire.
 *
 * <p>Signed: every header the request carries ({@code Accept-Encoding}, profile headers, {@code
 * Content-Type}), {@code host}, {@code x-amz-date} and, for temporary keys, {@code
 * x-amz-security-token}; for S3 also {@code x-amz-content-sha256}, which S3 requires.
 */
record AwsSigV4(
    Secret accessKeyId,
    Secret secretAccessKey,
    Optional<Secret> sessionToken,
    SigV4Signer signer,
    Optional<AssumeRole> assumeRole)
    implements Credentials {

  AwsSigV4 {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
    Objects.requireNonNull(signer, "signer");
    Objects.requireNonNull(assumeRole, "assumeRole");
  }

  static Credentials bind(AuthSettings settings) {
    Section auth = settings.auth();
    Secret accessKeyId = settings.secret("access_key_id", Secret.Characters.HTTP_HEADER);
    Secret secretAccessKey = settings.secret("secret_access_key");
    Optional<Secret> sessionToken =
        settings.optionalSecret("session_token", Secret.Characters.HTTP_HEADER);
    String region = settings.required("region", AuthMode.SIGV4);
    String service = settings.required("service", AuthMode.SIGV4);
    if (!region.isEmpty() && !isWord(region)) {
      auth.report("region", "must be an AWS region name (lower-case letters, digits, '-')");
    }
    if (!service.isEmpty() && !isWord(service)) {
      auth.report("service", "must be an AWS signing name (lower-case letters, digits, '-')");
    }
    Optional<String> roleArn = settings.string("role_arn");
    if (roleArn.isPresent() && !roleArn.get().startsWith("arn:")) {
      auth.report("role_arn", "must be an IAM role ARN (arn:aws:iam::ACCOUNT:role/NAME)");
    }
    for (String key : List.of("sts_endpoint", "role_session_name")) {
      if (roleArn.isEmpty() && auth.node(key).isPresent()) {
        auth.report(key, "applies only with role_arn");
      }
    }
    String sessionName = settings.string("role_session_name").orElse("dfe-fetcher");
    if (!sessionName.matches("[\\w+=,.@-]{2,64}")) {
      auth.report("role_session_name", "must be 2 to 64 of letters, digits and +=,.@_-");
    }
    // STS's regional endpoint; the region is checked above, a bad one only stands in.
    URI stsEndpoint =
        settings
            .url("sts_endpoint")
            .orElse(
                URI.create(
                    "https://sts." + (isWord(region) ? region : "invalid") + ".amazonaws.com/"));
    Optional<AssumeRole> assumeRole =
        roleArn.map(
            arn ->
                new AssumeRole(
                    stsEndpoint,
                    arn,
                    sessionName,
                    new SigV4Signer(region, "sts"),
                    accessKeyId,
                    secretAccessKey,
                    sessionToken,
                    auth.path()));
    return new AwsSigV4(
        accessKeyId, secretAccessKey, sessionToken, new SigV4Signer(region, service), assumeRole);
  }

  private static boolean isWord(String text) {
    return text.matches("[a-z0-9][a-z0-9-]*");
  }

  @Override
  public AuthMode mode() {
    return AuthMode.SIGV4;
  }

  @Override
  public void authorize(OutgoingRequest request, AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    AwsKeys keys =
        assumeRole.isPresent()
            ? context.token(assumeRole.get(), cancellation)
            : keys(accessKeyId, secretAccessKey, sessionToken);
    sign(request, signer, keys, context.clock().instant());
  }

  /** The keys as revealed now (a rotated file is read afresh). */
  static AwsKeys keys(Secret accessKeyId, Secret secretAccessKey, Optional<Secret> sessionToken) {
    return new AwsKeys(
        accessKeyId.reveal(), secretAccessKey.reveal(), sessionToken.map(Secret::reveal));
  }

  /** Adds the date, the session token and the signature of everything else to {@code request}. */
  static void sign(OutgoingRequest request, SigV4Signer signer, AwsKeys keys, Instant now) {
    String payloadHash = SigV4Signer.sha256Hex(request.body());
    request.header("X-Amz-Date", SigV4Signer.AMZ_DATE.format(now));
    keys.sessionToken().ifPresent(token -> request.header("X-Amz-Security-Token", token));
    if (signer.service().equals("s3")) {
      request.header("X-Amz-Content-Sha256", payloadHash);
    }
    Map<String, List<String>> headers = new LinkedHashMap<>(request.headers().map());
    headers.put("host", List.of(request.host()));
    URI uri = request.uri();
    SigV4Signer.Signature signature =
        signer.sign(
            request.method(), uri.getRawPath(), uri.getRawQuery(), headers, payloadHash, now, keys);
    request.header("Authorization", signature.authorization());
  }

  /** Signed for the unit's own service and region when it names them. */
  @Override
  public Credentials narrowed(UnitAuth unit) {
    if (unit.service().isEmpty() && unit.region().isEmpty()) {
      return this;
    }
    SigV4Signer own =
        new SigV4Signer(
            unit.region().orElse(signer.region()), unit.service().orElse(signer.service()));
    return new AwsSigV4(accessKeyId, secretAccessKey, sessionToken, own, assumeRole);
  }

  /** Temporary keys may be revoked or expire early: a 401 is worth new ones. */
  @Override
  public boolean refreshes() {
    return assumeRole.isPresent();
  }
}
