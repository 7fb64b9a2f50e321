package org.coalition.api;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers by itself (a malformed or ambiguous request line, headers too large,
 * a body over the bound) in the API's own JSON form, not Jetty's HTML page, so that every
 * answer of the API has one shape (docs/api.md).
 */
final class JsonErrors implements Request.Handler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus() >= 400 ? response.getStatus() : 500;
    Object message = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    ApiError error = new ApiError(ApiError.codeOf(status), message == null ? "HTTP " + status : message.toString());
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    Content.Sink.write(response, true, error.json(), callback);
    return true;
  }
}
