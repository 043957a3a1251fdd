package dfe.fetcher.snapshots.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.change.RowIdentity;
import dfe.fetcher.core.envelope.FrameParser;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.snapshots.SnapshotFrames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparedSnapshotsTest {

  private static final String STORE = "inventory.hosts";

  @TempDir Path directory;

  @Test
  void theReassemblerOnlyEverSeesTheTwoComparedSnapshots() throws Exception {
    List<SnapshotFrames> dumps = new ArrayList<>();
    for (int minute = 1; minute <= 5; minute++) {
      dumps.add(SnapshotFrames.dump(STORE, minute, "{\"id\":\"a\",\"n\":" + minute + "}"));
    }
    Reassembler reassembler = Reassembler.verifyOnly();
    ComparedSnapshots compared =
        new ComparedSnapshots(
            dumps.get(1).id(),
            dumps.get(3).id(),
            RowIdentity.of(List.of("/id")),
            reassembler,
            directory,
            1 << 20);
    FrameParser parser = new FrameParser();

    for (SnapshotFrames dump : dumps) {
      for (String line : dump.lines()) {
        compared.accept(parser.parse(line.getBytes(StandardCharsets.UTF_8)));
      }
    }

    assertThat(reassembler.reports())
        .extracting(SnapshotReport::snapshotId)
        .containsExactly(dumps.get(1).id(), dumps.get(3).id());
    assertThat(compared.from().rows()).isEqualTo(1);
    assertThat(compared.to().rows()).isEqualTo(1);
  }
}
