package dfe.fetcher.rest.http;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * An instance's {@code rate} and {@code max_concurrent_requests}: what all the units of one
 * connection may send together, beside each unit's own {@code rate} from the profile. Opening the
 * connection makes one {@link BudgetGate} of it, which every unit's requests pass.
 *
 * @param requestsPerSec the connection's sustained rate; empty for no limit
 * @param burst how many requests may go at once after a quiet spell (a token bucket's size), at
 *     least 1
 * @param maxConcurrentRequests requests in flight at once (sent and their body not yet read to its
 *     end); empty for no limit
 */
public record ConnectionBudget(
    OptionalDouble requestsPerSec, int burst, OptionalInt maxConcurrentRequests) {

  public static final ConnectionBudget NONE =
      new ConnectionBudget(OptionalDouble.empty(), 1, OptionalInt.empty());

  public ConnectionBudget {
    Objects.requireNonNull(requestsPerSec, "requestsPerSec");
    Objects.requireNonNull(maxConcurrentRequests, "maxConcurrentRequests");
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, was " + burst);
    }
  }

  public BudgetGate open(String connection) {
    return new BudgetGate(this, connection);
  }
}
