package org.coalition.handler;

import java.util.Collection;
import java.util.List;

/**
 * What a handler's settings may check against the rest of the site file: the site's id, the local
 * accounts foreign jobs run as, the other handlers; problems are reported at a top-level key
 * ({@code site}, {@code accounts}).
 */
public interface SiteFacts {
  String site();

  /** The local accounts foreign jobs may run as (the values of {@code accounts}), without repeats. */
  Collection<String> accounts();

  /** Every handler of the site, this one included, in file order. */
  List<HandlerSettings> handlers();

  /** Records a problem at the top-level key {@code key} of the site file. */
  void problem(String key, String message);
}
