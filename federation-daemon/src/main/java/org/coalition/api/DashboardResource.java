package org.coalition.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The dashboard's files ({@code GET /ui/FILE}; {@code GET /} is its page): the page, its script and
 * style from this module's {@code dashboard/} resources, and uPlot, its charts' library, from the
 * uPlot WebJar on the class path. Nothing from outside: no CDN. The files hold no data (the page
 * reads the API), so {@link ApiGate} lets anyone fetch them.
 */
@Path("ui")
public final class DashboardResource {
  /** The uPlot WebJar's version (federation-daemon's pom); a test checks that its files are on the class path. */
  static final String UPLOT = "1.6.30";
  private static final String UPLOT_DIST = "/META-INF/resources/webjars/uplot/" + UPLOT + "/dist/";

  /** Every file served, by name: its resource and its media type. */
  private static final Map<String, String[]> FILES = Map.of(
      "index.html", new String[] {"/dashboard/index.html", "text/html; charset=utf-8"},
      "dashboard.js", new String[] {"/dashboard/dashboard.js", "text/javascript; charset=utf-8"},
      "dashboard.css", new String[] {"/dashboard/dashboard.css", "text/css; charset=utf-8"},
      "uPlot.iife.min.js", new String[] {UPLOT_DIST + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
      "uPlot.min.css", new String[] {UPLOT_DIST + "uPlot.min.css", "text/css; charset=utf-8"});

  @GET
  @Path("{file}")
  public Response file(@PathParam("file") String file) throws IOException {
    String[] f = FILES.get(file);
    if (f == null) {
      throw new ApiError(ApiError.Code.NOT_FOUND, "no file " + file + " in the dashboard");
    }
    return serve(f[0], f[1]);
  }

  /** The dashboard's page. */
  static Response page() throws IOException {
    String[] f = FILES.get("index.html");
    return serve(f[0], f[1]);
  }

  private static Response serve(String resource, String type) throws IOException {
    try (InputStream in = DashboardResource.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the dashboard's " + resource + " is not in this build");
      }
      return Response.ok(in.readAllBytes(), type).header("Cache-Control", "no-cache").header("X-Content-Type-Options", "nosniff")
          .header("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'").build();
    }
  }
}
