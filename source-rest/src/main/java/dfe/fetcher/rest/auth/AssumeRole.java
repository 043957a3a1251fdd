package dfe.fetcher.rest.auth;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderValues;
import dfe.fetcher.source.config.Secret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * STS AssumeRole (API version 2011-06-15) over HTTP: a form POST to {@code endpoint}, signed with
 * the instance's own keys for service {@code sts}, answered with temporary keys and when they
 * expire. Failures name the STS endpoint and the config path {@code at}, never a key.
 */
record AssumeRole(
    URI endpoint,
    String roleArn,
    String sessionName,
    SigV4Signer signer,
    Secret accessKeyId,
    Secret secretAccessKey,
    Optional<Secret> sessionToken,
    String at)
    implements TokenSource<AwsKeys> {

  static final int DURATION_SECS = 3_600;
  private static final String WHAT = "the STS endpoint";

  @Override
  public Issued<AwsKeys> issue(AuthContext context, Cancellation cancellation)
      throws SourceException, InterruptedException {
    String form =
        "Action=AssumeRole&DurationSeconds="
            + DURATION_SECS
            + "&RoleArn="
            + URLEncoder.encode(roleArn, StandardCharsets.UTF_8)
            + "&RoleSessionName="
            + URLEncoder.encode(sessionName, StandardCharsets.UTF_8)
            + "&Version=2011-06-15";
    HttpRequest.Builder builder =
        context
            .endpoint()
            .request(endpoint)
            .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    Instant now = context.clock().instant();
    AwsSigV4.sign(
        new OutgoingRequest(builder),
        signer,
        AwsSigV4.keys(accessKeyId, secretAccessKey, sessionToken),
        now);
    HttpRequest request = TokenEndpoint.build(builder, WHAT);
    TokenEndpoint.Answer answer =
        context
            .endpoint()
            .exchange(
                request,
                WHAT,
                "check access_key_id, secret_access_key and role_arn (" + at + ")",
                cancellation);
    return credentials(answer.body(), now);
  }

  private Issued<AwsKeys> credentials(byte[] body, Instant now) throws SourceException {
    String where = TokenEndpoint.describe(WHAT, endpoint);
    Document document;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setNamespaceAware(true);
      document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(body));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new SourceException(where + " answered with a body that is not XML (" + at + ")");
    }
    String accessKeyId = element(document, "AccessKeyId", where);
    String secretAccessKey = element(document, "SecretAccessKey", where);
    String sessionToken = element(document, "SessionToken", where);
    String expiration = element(document, "Expiration", where);
    if (!HeaderValues.canCarry(accessKeyId) || !HeaderValues.canCarry(sessionToken)) {
      throw new SourceException(where + " answered keys an HTTP header cannot carry (" + at + ")");
    }
    long expiresIn;
    try {
      expiresIn = Duration.between(now, Instant.parse(expiration)).toSeconds();
    } catch (DateTimeParseException e) {
      throw new SourceException(
          where + " answered an Expiration that is not an instant (" + at + ")");
    }
    return new Issued<>(
        new AwsKeys(accessKeyId, secretAccessKey, Optional.of(sessionToken)), expiresIn);
  }

  private String element(Document document, String name, String where) throws SourceException {
    NodeList found = document.getElementsByTagNameNS("*", name);
    if (found.getLength() == 0 || found.item(0).getTextContent().isBlank()) {
      throw new SourceException(where + " answered without Credentials/" + name + " (" + at + ")");
    }
    return found.item(0).getTextContent().trim();
  }

  @Override
  public String toString() {
    return "AssumeRole[" + roleArn + " at " + TokenEndpoint.describe(WHAT, endpoint) + "]";
  }
}
