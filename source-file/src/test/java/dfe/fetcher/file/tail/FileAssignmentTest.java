package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileAssignmentTest {

  private static final FingerprintSpec SPEC =
      new FingerprintSpec(FingerprintStrategy.CHECKSUM, 16, 0);

  private static FileAssignment.Found found(String path, String identity, String content) {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    return new FileAssignment.Found(path, identity, bytes, bytes.length);
  }

  private static FileAssignment.Entry entry(String path, String content, long offset) {
    return new FileAssignment.Entry(Fingerprint.ofText(SPEC, "", content), path, offset);
  }

  @Test
  void aFileKeepsItsEntryUnderANewName() {
    FileAssignment.Entry old = entry("/l/app.log", "first line\n", 11);
    FileAssignment.Found renamed = found("/l/app.log.1", "i1", "first line\nsecond\n");
    FileAssignment.Found fresh = found("/l/app.log", "i2", "another file\n");

    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(List.of(fresh, renamed), List.of(old), Map.of());

    assertThat(assigned).containsOnlyKeys(renamed).containsEntry(renamed, old);
  }

  @Test
  void theIdentityLastReadWinsOverThePathWhenBothFilesStartAlike() {
    FileAssignment.Entry old = entry("/l/app.log", "same start", 10);
    FileAssignment.Found renamed = found("/l/app.log.1", "i1", "same start, old");
    FileAssignment.Found fresh = found("/l/app.log", "i2", "same start, new");

    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(
            List.of(fresh, renamed), List.of(old), Map.of(old.fingerprint().text(), "i1"));

    assertThat(assigned).containsOnlyKeys(renamed);
  }

  @Test
  void withoutAnIdentityThePathTellsTwoLikeFilesApart() {
    FileAssignment.Entry a = entry("/l/a.log", "same", 100);
    FileAssignment.Entry b = entry("/l/b.log", "same", 200);
    FileAssignment.Found fileB = found("/l/b.log", "ib", "same bytes b");
    FileAssignment.Found fileA = found("/l/a.log", "ia", "same bytes a");

    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(List.of(fileB, fileA), List.of(a, b), Map.of());

    assertThat(assigned).containsEntry(fileA, a).containsEntry(fileB, b);
  }

  @Test
  void anEntryGoesToOneFileOnlyAndAFileWithoutOneIsNew() {
    FileAssignment.Entry only = entry("/l/x.log", "same", 4);
    FileAssignment.Found one = found("/l/y.log", "i1", "same and more");
    FileAssignment.Found two = found("/l/z.log", "i2", "same and other");

    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(List.of(one, two), List.of(only), Map.of());

    assertThat(assigned).hasSize(1).containsValue(only);
  }

  @Test
  void theFullestMatchingFingerprintIsPreferred() {
    FileAssignment.Entry shortOne = entry("/l/a.log", "abc", 3);
    FileAssignment.Entry fullOne = entry("/l/b.log", "abcdefghijklmnopq", 17);
    FileAssignment.Found file = found("/l/c.log", "i", "abcdefghijklmnopqrstuvwxyz");

    Map<FileAssignment.Found, FileAssignment.Entry> assigned =
        FileAssignment.assign(List.of(file), List.of(shortOne, fullOne), Map.of());

    assertThat(assigned).containsEntry(file, fullOne);
  }
}
