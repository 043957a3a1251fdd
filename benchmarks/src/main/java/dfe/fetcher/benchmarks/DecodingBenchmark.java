package dfe.fetcher.benchmarks;

import dfe.fetcher.file.dump.RecordDecoding;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding a file's records from memory, in nanoseconds per record; {@code -prof gc} for the bytes
 * allocated. NDJSON: the rows of {@code benchmarks/scripts/throughput.sh} (about 290 bytes each,
 * validated as one JSON value per line). CSV: twelve columns of about the same size, each row
 * written as a JSON object of strings.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class DecodingBenchmark {

  static final int ROWS = 10_000;

  private byte[] ndjson;
  private byte[] csv;

  @Setup
  public void files() {
    StringBuilder lines = new StringBuilder();
    StringBuilder table =
        new StringBuilder("id,alive,n,rack,zone,os,cpu,mem_mb,tags,owner,site,note\n");
    for (int i = 0; i < ROWS; i++) {
      lines
          .append("{\"id\":\"host-")
          .append(String.format("%09d", i))
          .append("\",\"alive\":")
          .append(i % 10 == 0 ? "false" : "true")
          .append(",\"n\":")
          .append(i)
          .append(
              ",\"rack\":\"r07\",\"zone\":\"eu-west-1\",\"os\":\"debian-12.4\",\"cpu\":8,"
                  + "\"mem_mb\":4096,\"tags\":[\"web\",\"prod\",\"t7\"],\"owner\":"
                  + "\"team-007@example.org\",\"site\":\"dc-07-hall-b\",\"note\":\"generated row"
                  + " for the throughput benchmark, padded to about three hundred bytes\"}\n");
      table
          .append("host-")
          .append(String.format("%09d", i))
          .append(i % 10 == 0 ? ",false," : ",true,")
          .append(i)
          .append(
              ",r07,eu-west-1,debian-12.4,8,4096,\"web,prod,t7\",team-007@example.org,"
                  + "dc-07-hall-b,\"generated row for the throughput benchmark, padded to about"
                  + " three hundred bytes\"\n");
    }
    ndjson = lines.toString().getBytes(StandardCharsets.UTF_8);
    csv = table.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void ndjson(Blackhole blackhole) throws IOException {
    decode(RecordDecoding.Format.NDJSON, ndjson, blackhole);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void csv(Blackhole blackhole) throws IOException {
    decode(RecordDecoding.Format.CSV, csv, blackhole);
  }

  private static void decode(RecordDecoding.Format format, byte[] file, Blackhole blackhole)
      throws IOException {
    long count =
        RecordDecoding.decodeAll(format, new ByteArrayInputStream(file), blackhole::consume);
    if (count != ROWS) {
      throw new IllegalStateException("decoded " + count + " records, not " + ROWS);
    }
  }
}
