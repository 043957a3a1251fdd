package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FingerprintTest {

  private static final FingerprintSpec CHECKSUM =
      new FingerprintSpec(FingerprintStrategy.CHECKSUM, 8, 4);
  private static final FingerprintSpec INODE =
      new FingerprintSpec(FingerprintStrategy.DEVICE_AND_INODE, 8, 0);

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Fingerprint of(FingerprintSpec spec, String identity, String content) {
    byte[] bytes = utf8(content);
    return Fingerprint.of(spec, identity, bytes, Math.min(bytes.length, spec.span())).orElseThrow();
  }

  private static boolean matches(Fingerprint fingerprint, String identity, String content) {
    byte[] bytes = utf8(content);
    return fingerprint.matches(identity, bytes, bytes.length);
  }

  @Test
  void anEmptyFileHasNoFingerprint() {
    assertThat(Fingerprint.of(CHECKSUM, "i", new byte[0], 0)).isEmpty();
  }

  @Test
  void theChecksumCoversTheBytesAfterTheHeader() {
    Fingerprint fingerprint = of(CHECKSUM, "i", "HEADabcdefghXYZ");

    assertThat(fingerprint.start()).isEqualTo(4);
    assertThat(fingerprint.end()).isEqualTo(12);
    assertThat(matches(fingerprint, "other", "HEADabcdefgh and more")).isTrue();
    assertThat(matches(fingerprint, "i", "HEADabcdefgX")).isFalse();
    assertThat(matches(fingerprint, "i", "XXXXabcdefgh")).as("the header is skipped").isTrue();
  }

  @Test
  void aShortFilesFingerprintCoversWhatItHasAndStillMatchesOnceItGrew() {
    Fingerprint shorterThanHeader = of(CHECKSUM, "i", "HE");
    Fingerprint pastHeader = of(CHECKSUM, "i", "HEADab");

    assertThat(shorterThanHeader.start()).isZero();
    assertThat(shorterThanHeader.end()).isEqualTo(2);
    assertThat(pastHeader.start()).isEqualTo(4);
    assertThat(pastHeader.end()).isEqualTo(6);
    assertThat(matches(shorterThanHeader, "i", "HEADabcdefgh")).isTrue();
    assertThat(matches(pastHeader, "i", "HEADabcdefgh")).isTrue();
    assertThat(matches(pastHeader, "i", "HEADa")).as("shorter than it covers").isFalse();
  }

  @Test
  void deviceAndInodeNeedsTheSameIdentityAndTheSameFirstBytes() {
    Fingerprint fingerprint = of(INODE, "(dev=1,ino=7)", "abc");

    assertThat(matches(fingerprint, "(dev=1,ino=7)", "abcdef")).isTrue();
    assertThat(matches(fingerprint, "(dev=1,ino=8)", "abcdef")).isFalse();
    assertThat(matches(fingerprint, "(dev=1,ino=7)", "xyz")).as("a reused inode").isFalse();
  }

  @Test
  void theTextReadsBackAsTheSameFingerprint() {
    Fingerprint checksum = of(CHECKSUM, "i", "HEADabcdefgh");
    Fingerprint inode = of(INODE, "(dev=1:2,ino=7)", "abcdefghij");

    assertThat(Fingerprint.parse(checksum.text())).contains(checksum);
    assertThat(Fingerprint.parse(inode.text())).contains(inode);
    assertThat(checksum.text()).startsWith("checksum:4:12:");
  }

  @Test
  void aTextThisBuildDidNotWriteIsNoFingerprint() {
    assertThat(Fingerprint.parse("crc:1:2:0011223344556677")).isEmpty();
    assertThat(Fingerprint.parse("checksum:5:3:0011223344556677")).isEmpty();
    assertThat(Fingerprint.parse("checksum:0:3:00")).isEmpty();
    assertThat(Fingerprint.parse("checksum")).isEmpty();
    assertThat(Fingerprint.parse("")).isEmpty();
  }
}
