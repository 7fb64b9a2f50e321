/**
 * The broker of one site: it turns the five events of DESIGN.md into decisions (publish, park,
 * withdraw, pilot, claim, replay), each logged on one line with its reason; {@code local} holds
 * the demo's batch system of local processes.
 */
package org.coalition.daemon;
