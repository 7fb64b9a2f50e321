package org.coalition.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The batch systems on the class path: every {@link HandlerFactory} that {@link ServiceLoader} finds, by type and alias. */
public final class HandlerFactories {
  private final Map<String, HandlerFactory> byName = new TreeMap<>();
  private final List<String> types = new ArrayList<>();

  private HandlerFactories(Iterable<HandlerFactory> factories) {
    for (HandlerFactory f : factories) {
      register(f.type(), f);
      types.add(f.type());
      f.aliases().forEach(alias -> register(alias, f));
    }
    types.sort(null);
  }

  private void register(String name, HandlerFactory f) {
    HandlerFactory before = byName.put(name, f);
    if (before != null && before != f) {
      throw new IllegalStateException("two batch systems are named '" + name + "': " + before.getClass().getName() + " and "
          + f.getClass().getName());
    }
  }

  /** The factories this class's loader finds. */
  public static HandlerFactories installed() {
    return new HandlerFactories(ServiceLoader.load(HandlerFactory.class, HandlerFactories.class.getClassLoader()));
  }

  /** Exactly these factories (tests). */
  public static HandlerFactories of(List<HandlerFactory> factories) {
    return new HandlerFactories(factories);
  }

  /** The factory a site file's {@code type} (or one of its aliases) names. */
  public Optional<HandlerFactory> find(String typeOrAlias) {
    return Optional.ofNullable(byName.get(typeOrAlias));
  }

  /** Why {@code type} is refused though something like it exists ({@code drmaa}), if a factory explains it. */
  public Optional<String> misnomer(String type) {
    return byName.values().stream().map(f -> f.misnomers().get(type)).filter(m -> m != null).findFirst();
  }

  /** The types, sorted, without aliases. */
  public List<String> types() {
    return List.copyOf(types);
  }
}
