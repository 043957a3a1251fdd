package dfe.fetcher.rest.auth;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * A request about to be sent, as a mode that signs it sees it: its method, URI, headers and body as
 * they will go out, and the one way to add to it ({@link #header}). The {@code Host} header is not
 * among {@link #headers()}: the HTTP client derives it from the URI ({@link #host()}).
 */
public final class OutgoingRequest {

  private final HttpRequest.Builder builder;
  private HttpRequest view;
  private byte[] body;

  OutgoingRequest(HttpRequest.Builder builder) {
    this.builder = builder;
  }

  public String method() {
    return view().method();
  }

  public URI uri() {
    return view().uri();
  }

  /** The headers set so far, those added by {@link #header} included. */
  public HttpHeaders headers() {
    return view().headers();
  }

  /** What the HTTP client sends as {@code Host}: the host, lower case, and a port not default. */
  public String host() {
    URI uri = uri();
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    boolean defaultPort =
        port < 0
            || (port == 443 && uri.getScheme().equalsIgnoreCase("https"))
            || (port == 80 && uri.getScheme().equalsIgnoreCase("http"));
    return defaultPort ? host : host + ":" + port;
  }

  /** The body's bytes, empty for a request without one. */
  public byte[] body() {
    if (body == null) {
      body = view().bodyPublisher().map(OutgoingRequest::bytes).orElse(new byte[0]);
    }
    return body.clone();
  }

  public void header(String name, String value) {
    builder.header(name, value);
    view = null;
  }

  private HttpRequest view() {
    if (view == null) {
      view = builder.copy().build();
    }
    return view;
  }

  /**
   * Reads a publisher of bytes already in memory (the requester's body is a byte array, which the
   * JDK publishes on the subscribing thread).
   */
  private static byte[] bytes(HttpRequest.BodyPublisher publisher) {
    CompletableFuture<byte[]> read = new CompletableFuture<>();
    List<ByteBuffer> parts = new ArrayList<>();
    publisher.subscribe(
        new Flow.Subscriber<>() {
          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(ByteBuffer item) {
            parts.add(item);
          }

          @Override
          public void onError(Throwable failure) {
            read.completeExceptionally(failure);
          }

          @Override
          public void onComplete() {
            int size = parts.stream().mapToInt(ByteBuffer::remaining).sum();
            ByteBuffer all = ByteBuffer.allocate(size);
            parts.forEach(all::put);
            read.complete(all.array());
          }
        });
    if (!read.isDone()) {
      throw new IllegalStateException("a request body to sign must be in memory");
    }
    return read.join();
  }
}
