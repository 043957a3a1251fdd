package dfe.fetcher.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The signer against cases of AWS's SigV4 test suite (aws-sig-v4-test-suite): the documented
 * example keys, 20150830T123600Z, us-east-1, service {@code service}. Each case's canonical request
 * is test data, written from the spec; the string to sign and the signature are derived from it
 * here, step by step with javax.crypto, apart from the signer; the signatures of get-vanilla,
 * get-vanilla-query-order-key-case and post-x-www-form-urlencoded are also the ones the suite
 * publishes.
 */
class SigV4SignerTest {

  private static final AwsKeys KEYS =
      new AwsKeys("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", Optional.empty());
  private static final Instant AT = Instant.parse("2015-08-30T12:36:00Z");
  private static final String SCOPE = "20150830/us-east-1/service/aws4_request";
  private static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private final SigV4Signer signer = new SigV4Signer("us-east-1", "service");

  private static Map<String, List<String>> headers(String... namesAndValues) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.put(namesAndValues[i], List.of(namesAndValues[i + 1]));
    }
    return headers;
  }

  @Test
  void getVanillaSignsAsTheSuitePublishes() {
    SigV4Signer.Signature signature =
        signer.sign(
            "GET",
            "/",
            null,
            headers("Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z"),
            EMPTY_SHA256,
            AT,
            KEYS);

    assertThat(signature.canonicalRequest())
        .isEqualTo(
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                + "host;x-amz-date\n"
                + EMPTY_SHA256);
    assertThat(signature.stringToSign())
        .isEqualTo(
            "AWS4-HMAC-SHA256\n20150830T123600Z\n"
                + SCOPE
                + "\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
    assertThat(signature.authorization())
        .isEqualTo(
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"
                + SCOPE
                + ", SignedHeaders=host;x-amz-date,"
                + " Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  }

  @Test
  void getVanillaQueryOrderKeyCaseSortsParametersByName() {
    SigV4Signer.Signature signature =
        signer.sign(
            "GET",
            "/",
            "Param2=value2&Param1=value1",
            headers("Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z"),
            EMPTY_SHA256,
            AT,
            KEYS);

    assertMatchesSpec(
        signature,
        "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\n"
            + "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
            + EMPTY_SHA256,
        "host;x-amz-date");
    assertThat(signature.authorization())
        .endsWith("Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
  }

  @Test
  void postXWwwFormUrlencodedSignsTheContentTypeAndTheBodysHash() {
    byte[] body = "Param1=value1".getBytes(StandardCharsets.UTF_8);
    SigV4Signer.Signature signature =
        signer.sign(
            "POST",
            "/",
            null,
            headers(
                "Content-Type",
                "application/x-www-form-urlencoded",
                "Host",
                "example.amazonaws.com",
                "X-Amz-Date",
                "20150830T123600Z"),
            SigV4Signer.sha256Hex(body),
            AT,
            KEYS);

    assertMatchesSpec(
        signature,
        "POST\n/\n\ncontent-type:application/x-www-form-urlencoded\nhost:example.amazonaws.com\n"
            + "x-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date\n"
            + "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
        "content-type;host;x-amz-date");
    assertThat(signature.authorization())
        .endsWith("Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");
  }

  @Test
  void getHeaderValueTrimTrimsValuesAndMakesEachRunOfSpacesOne() {
    SigV4Signer.Signature signature =
        signer.sign(
            "GET",
            "/",
            null,
            headers(
                "Host",
                "example.amazonaws.com",
                "My-Header1",
                " value1",
                "My-Header2",
                " \"a   b   c\"",
                "X-Amz-Date",
                "20150830T123600Z"),
            EMPTY_SHA256,
            AT,
            KEYS);

    assertMatchesSpec(
        signature,
        "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
            + "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n"
            + EMPTY_SHA256,
        "host;my-header1;my-header2;x-amz-date");
  }

  @Test
  void aPathIsEncodedTwiceForEveryServiceButS3() {
    Map<String, List<String>> headers =
        headers("Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z");

    assertThat(
            signer
                .sign("GET", "/a/./b/../c%20d", null, headers, EMPTY_SHA256, AT, KEYS)
                .canonicalRequest())
        .startsWith("GET\n/a/c%2520d\n");
    assertThat(
            new SigV4Signer("us-east-1", "s3")
                .sign("GET", "/a/c%20d~", "b=%7e&a=x y", headers, EMPTY_SHA256, AT, KEYS)
                .canonicalRequest())
        .startsWith("GET\n/a/c%20d~\na=x%20y&b=~\n");
  }

  /** The signature the spec's steps give for {@code canonicalRequest}, derived here. */
  private static void assertMatchesSpec(
      SigV4Signer.Signature signature, String canonicalRequest, String signedHeaders) {
    String stringToSign =
        "AWS4-HMAC-SHA256\n20150830T123600Z\n" + SCOPE + "\n" + hex(sha256(canonicalRequest));
    byte[] key =
        hmac(("AWS4" + KEYS.secretAccessKey()).getBytes(StandardCharsets.UTF_8), "20150830");
    key = hmac(key, "us-east-1");
    key = hmac(key, "service");
    key = hmac(key, "aws4_request");
    String expected =
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"
            + SCOPE
            + ", SignedHeaders="
            + signedHeaders
            + ", Signature="
            + hex(hmac(key, stringToSign));

    assertThat(signature.canonicalRequest()).isEqualTo(canonicalRequest);
    assertThat(signature.stringToSign()).isEqualTo(stringToSign);
    assertThat(signature.authorization()).isEqualTo(expected);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
