/**
 * The broker of one site: {@link org.coalition.daemon.Broker}, the façade that wires the home side
 * ({@code home}), the executor side ({@code executor}), outputs ({@code outputs}) and the pilots'
 * protocol ({@code pilot}) on what they share ({@code base}), and {@link org.coalition.daemon.SiteDaemon},
 * which ticks it. It turns the five events of DESIGN.md into decisions (publish, park, withdraw,
 * pilot, claim, replay), each logged on one line with its reason. The packages depend downwards
 * only: this one on all, {@code home} and {@code executor} on {@code outputs} and {@code base},
 * {@code executor} on {@code pilot}, the rest on {@code base} (docs/decisions/0017-daemon-renovation.md).
 */
package org.coalition.daemon;
