package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A command line that names a subcommand builds only that one's model (start-up), and help, no
 * subcommand or a mistake still meet the whole command.
 */
class SubcommandChoiceTest {

  private static final String[] ALL = {
    "run", "config-check", "checkpoints", "filter", "status", "top", "metrics-manifest", "snapshots"
  };

  @Test
  void theFirstWordThatIsNoOptionNorItsValueNamesTheSubcommand() {
    assertThat(DfeFetcher.subcommandNamed(new String[] {"run", "--config", "x.yaml", "--once"}))
        .contains("run");
    assertThat(
            DfeFetcher.subcommandNamed(
                new String[] {"--progress", "never", "--log-format", "json", "snapshots", "rows"}))
        .contains("snapshots");
    assertThat(DfeFetcher.subcommandNamed(new String[] {"--log-format=json", "top"}))
        .contains("top");
    assertThat(DfeFetcher.subcommandNamed(new String[] {"config-check", "--help"}))
        .contains("config-check");
  }

  @Test
  void helpNoSubcommandAndAWordThatIsNoneGetTheWholeCommand() {
    assertThat(DfeFetcher.subcommandNamed(new String[] {})).isEqualTo(Optional.empty());
    assertThat(DfeFetcher.subcommandNamed(new String[] {"--help"})).isEmpty();
    assertThat(DfeFetcher.subcommandNamed(new String[] {"-V"})).isEmpty();
    assertThat(DfeFetcher.subcommandNamed(new String[] {"rnu", "--once"})).isEmpty();
  }

  @Test
  void theUsageListsEverySubcommandWithOrWithoutHelp() {
    CliRun help = CliRun.of("--help");
    CliRun bare = CliRun.of();

    assertThat(help.exitCode()).isZero();
    for (String command : ALL) {
      assertThat(help.out()).contains("  " + command);
      assertThat(bare.err()).contains("  " + command);
    }
  }

  @Test
  void aMistypedSubcommandIsRefusedWithTheCommandsOnOffer() {
    CliRun typo = CliRun.of("rnu", "--once");

    assertThat(typo.exitCode()).isEqualTo(2);
    assertThat(typo.err()).contains("Unmatched arguments from index 0: 'rnu', '--once'");
    for (String command : ALL) {
      assertThat(typo.err()).contains("  " + command);
    }
  }

  @Test
  void aNamedSubcommandStillTakesTheInheritedOptions() {
    CliRun run = CliRun.of("--log-format", "json", "filter", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("--log-format=text|json");
  }
}
