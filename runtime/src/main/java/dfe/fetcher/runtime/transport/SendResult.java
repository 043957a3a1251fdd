package dfe.fetcher.runtime.transport;

import java.util.List;

/**
 * What became of a batch once every record in it was acknowledged or refused.
 *
 * @param refused records the destination refused as too large, with its error; every other record
 *     of the batch is durable
 */
public record SendResult(List<Refused> refused) {

  public static final SendResult ALL_ACKNOWLEDGED = new SendResult(List.of());

  public SendResult {
    refused = List.copyOf(refused);
  }

  /** A record the destination refused as too large to take. */
  public record Refused(OutboundRecord record, String error) {}
}
