package dfe.fetcher.file.dump;

import static dfe.fetcher.file.dump.DataFiles.markOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files a unit's {@code paths} globs select. */
class PathGlobTest {

  @TempDir Path temp;
  DataFiles data;

  @BeforeEach
  void setUp() {
    data = new DataFiles(temp);
  }

  @Test
  void doubleStarMatchesZeroDirectories() throws Exception {
    Path top = data.write("data/x.ndjson", "{}\n", 1);

    assertThat(data.readAll("data/**/*.ndjson").endMarks()).containsExactly(markOf(top));
  }

  @Test
  void doubleStarMatchesNestedDirectories() throws Exception {
    Path one = data.write("data/a/x.ndjson", "{}\n", 1);
    Path two = data.write("data/a/b/x.ndjson", "{}\n", 2);

    assertThat(data.readAll("data/**/*.ndjson").endMarks())
        .containsExactly(markOf(one), markOf(two));
  }

  @Test
  void doubleStarInTheMiddleMatchesZeroOrMoreDirectories() throws Exception {
    Path direct = data.write("data/day/x.ndjson", "{}\n", 1);
    Path nested = data.write("data/2026/05/day/x.ndjson", "{}\n", 2);
    data.write("data/2026/other/x.ndjson", "{}\n", 3);

    assertThat(data.readAll("data/**/day/*.ndjson").endMarks())
        .containsExactly(markOf(direct), markOf(nested));
  }

  @Test
  void aLeadingDoubleStarMatchesFromTheBaseDirectory() throws Exception {
    Path top = data.write("x.ndjson", "{}\n", 1);
    Path deep = data.write("a/b/x.ndjson", "{}\n", 2);

    assertThat(data.readAll("**/*.ndjson").endMarks()).containsExactly(markOf(top), markOf(deep));
  }

  @Test
  void singleStarStaysWithinOneDirectory() throws Exception {
    Path top = data.write("data/x.ndjson", "{}\n", 1);
    data.write("data/a/x.ndjson", "{}\n", 2);

    assertThat(data.readAll("data/*.ndjson").endMarks()).containsExactly(markOf(top));
  }

  @Test
  void filesOutsideTheGlobsDirectoryAreNotMatched() throws Exception {
    Path inside = data.write("data/x.ndjson", "{}\n", 1);
    data.write("other/x.ndjson", "{}\n", 2);
    data.write("x.ndjson", "{}\n", 3);

    assertThat(data.readAll("data/**/*.ndjson").endMarks()).containsExactly(markOf(inside));
  }

  @Test
  void onlyTheGlobsLiteralPrefixIsWalked() {
    PathGlob glob = PathGlob.compile("data/hosts/**/*.ndjson", temp);

    assertThat(glob.walkRoot()).isEqualTo(temp.resolve("data/hosts").toAbsolutePath());
  }

  @Test
  void aGlobWithoutDoubleStarIsWalkedOnlyAsDeepAsItReaches() {
    PathGlob glob = PathGlob.compile("data/*/*.ndjson", temp);

    assertThat(glob.maxDepth()).isEqualTo(2);
  }

  @Test
  void anAbsoluteGlobIgnoresTheBaseDirectory() throws Exception {
    Path file = data.write("data/x.ndjson", "{}\n", 1);
    String absolute = temp.toAbsolutePath() + "/data/*.ndjson";

    assertThat(new DataFiles(temp.resolve("elsewhere")).readAll(absolute).endMarks())
        .containsExactly(markOf(file));
  }

  @Test
  void aGlobWithoutGlobCharactersNamesOneFile() throws Exception {
    Path file = data.write("data/x.ndjson", "{}\n", 1);
    data.write("data/y.ndjson", "{}\n", 2);

    assertThat(data.readAll("data/x.ndjson").endMarks()).containsExactly(markOf(file));
  }

  @Test
  void alternativesSetsAndSingleCharactersMatch() throws Exception {
    Path ndjson = data.write("data/a1.ndjson", "{}\n", 1);
    Path jsonl = data.write("data/b2.jsonl", "{}\n", 2);
    data.write("data/c3.ndjson", "{}\n", 3);
    data.write("data/a10.ndjson", "{}\n", 4);

    assertThat(data.readAll("data/[ab]?.{ndjson,jsonl}").endMarks())
        .containsExactly(markOf(ndjson), markOf(jsonl));
  }

  @Test
  void aNegatedSetExcludesItsCharacters() throws Exception {
    data.write("data/a.ndjson", "{}\n", 1);
    Path b = data.write("data/b.ndjson", "{}\n", 2);

    assertThat(data.readAll("data/[!a].ndjson").endMarks()).containsExactly(markOf(b));
  }

  @Test
  void regexCharactersInAGlobAreLiteral() throws Exception {
    Path file = data.write("data/a+b (1).ndjson", "{}\n", 1);
    data.write("data/aab (1).ndjson", "{}\n", 2);

    assertThat(data.readAll("data/a+b (?).ndjson").endMarks()).containsExactly(markOf(file));
  }

  @Test
  void aMalformedGlobIsRefusedNamingIt() {
    assertThatThrownBy(() -> PathGlob.compile("data/{a,b/*.ndjson", temp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"data/{a,b/*.ndjson\"")
        .hasMessageContaining("not closed");
  }

  @Test
  void anUnclosedSetIsRefused() {
    assertThatThrownBy(() -> PathGlob.compile("data/[ab.ndjson", temp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"data/[ab.ndjson\"");
  }
}
