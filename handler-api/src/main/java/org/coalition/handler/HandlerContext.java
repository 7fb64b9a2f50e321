package org.coalition.handler;

import java.util.function.DoubleSupplier;

/**
 * What the daemon gives a {@link HandlerFactory} to connect with: the site's id, the runner of job
 * scripts as local accounts (in the daemon's spool), and the federation's clock in seconds.
 */
public record HandlerContext(String site, ScriptRunner runner, DoubleSupplier now) {}
