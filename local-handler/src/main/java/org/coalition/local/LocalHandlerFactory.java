package org.coalition.local;

import java.util.List;
import java.util.Optional;
import org.coalition.handler.HandlerContext;
import org.coalition.handler.HandlerFactory;
import org.coalition.handler.HandlerSettings;
import org.coalition.handler.ResourceHandler;
import org.coalition.handler.config.ConfigSection;

/** The demo's batch system as a plug-in, like the real ones: reads {@code type: local} entries, starts a {@link LocalSite}. */
public final class LocalHandlerFactory implements HandlerFactory {
  static final String TYPE = "local";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Optional<String> placementProblem(List<HandlerSettings> earlier, int listed) {
    return listed > 1 ? Optional.of("the local (demo) batch system runs alone; list it as the only handler") : Optional.empty();
  }

  @Override
  public HandlerSettings read(String name, ConfigSection h) {
    return new LocalSettings(name, h.integer("cores", 4, 1, 4096));
  }

  @Override
  public ResourceHandler connect(HandlerSettings settings, HandlerContext context) {
    return new LocalSite(context.site(), ((LocalSettings) settings).cores(), context.runner(), context.now());
  }
}
