package dfe.fetcher.runtime.config;

import dfe.fetcher.file.FileSourceFamily;
import dfe.fetcher.jdbc.JdbcSourceFamily;
import dfe.fetcher.rest.RestSourceFamily;
import dfe.fetcher.source.SourceFamily;
import java.util.List;

/**
 * The source families this build reads: the one place in the application that names a family's type
 * ({@code ModuleBoundariesTest} keeps it so). A new family is a module and a line here.
 */
public final class SourceFamilies {

  /** Every family, in the order their sections are documented. */
  public static final List<SourceFamily> ALL =
      List.of(new FileSourceFamily(), new JdbcSourceFamily(), new RestSourceFamily());

  /**
   * Family names reserved for families this build does not read yet: a section for one is refused.
   */
  static final List<String> PLANNED = List.of();

  private SourceFamilies() {}
}
