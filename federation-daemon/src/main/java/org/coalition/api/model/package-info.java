/**
 * The daemon's HTTP API as records: what the server answers, what the command line's client
 * reads, and what the pilot's client sends and reads. One package, so the three never drift
 * apart; docs/api.md and src/main/resources/openapi.yaml describe the same shapes.
 */
package org.coalition.api.model;
