/**
 * The daemon's HTTP API (Jersey on the JDK's HTTP server, JSON): site status, federation view,
 * ledger, job lookup, participation (operator token to write), pilot endpoints (per-pilot
 * capability), Prometheus metrics and the OpenAPI document. docs/api.md lists the endpoints.
 */
package org.coalition.api;
