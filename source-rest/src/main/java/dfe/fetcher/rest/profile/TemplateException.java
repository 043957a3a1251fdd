package dfe.fetcher.rest.profile;

/**
 * A template that cannot be rendered with the values of one request (an {@code int()} of a variable
 * that is no number, a pattern given at run time that is none). The message names the template's
 * setting and the expression, never a credential: templates read no secret.
 */
public final class TemplateException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public TemplateException(String message) {
    super(message);
  }
}
