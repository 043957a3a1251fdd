package dfe.fetcher.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A tiny HTTP proxy on 127.0.0.1: a {@code CONNECT host:port} is answered 200 and tunnelled, a
 * request in absolute form ({@code GET http://host:port/path}) is forwarded with {@code Connection:
 * close}; either way the bytes are piped both ways until a side closes. Records each request line
 * it was sent.
 */
final class TunnelProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<String> requestLines = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Socket> sockets = new ConcurrentLinkedQueue<>();

  TunnelProxy() throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  List<String> requestLines() {
    return List.copyOf(requestLines);
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        sockets.add(client);
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try {
      InputStream in = client.getInputStream();
      byte[] head = head(in);
      String requestLine = new String(head, StandardCharsets.ISO_8859_1).split("\r\n", 2)[0];
      requestLines.add(requestLine);
      String[] parts = requestLine.split(" ");
      Socket target;
      if (parts[0].equals("CONNECT")) {
        String[] hostPort = parts[1].split(":");
        target = connect(hostPort[0], Integer.parseInt(hostPort[1]));
        client
            .getOutputStream()
            .write(
                "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        client.getOutputStream().flush();
      } else {
        URI uri = URI.create(parts[1]);
        target = connect(uri.getHost(), uri.getPort());
        target.getOutputStream().write(oneRequest(head));
      }
      threads.execute(() -> pipe(target, client));
      pipe(client, target);
    } catch (IOException e) {
      closeQuietly(client);
    }
  }

  /**
   * The head with {@code Connection: close}, so the server ends the connection after its answer and
   * the client opens a new one, and this proxy sees, for the next request.
   */
  private static byte[] oneRequest(byte[] head) {
    StringBuilder out = new StringBuilder();
    for (String line : new String(head, StandardCharsets.ISO_8859_1).split("\r\n")) {
      String name = line.contains(":") ? line.substring(0, line.indexOf(':')).trim() : "";
      if (!line.isEmpty()
          && !name.equalsIgnoreCase("Connection")
          && !name.equalsIgnoreCase("Upgrade")
          && !name.equalsIgnoreCase("HTTP2-Settings")) {
        out.append(line).append("\r\n");
      }
    }
    return out.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private Socket connect(String host, int port) throws IOException {
    Socket target = new Socket();
    sockets.add(target);
    target.connect(new InetSocketAddress(host, port), 5_000);
    return target;
  }

  /** The request head, through its blank line; the body, if any, is piped after it. */
  private static byte[] head(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed before the request head ended");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toByteArray();
  }

  private static void pipe(Socket from, Socket to) {
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to.getOutputStream();
      in.transferTo(out);
    } catch (IOException e) {
      // One side closed: close both.
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing anyway.
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(TunnelProxy::closeQuietly);
    threads.shutdownNow();
  }
}
