/**
 * Reading one section of a site file with every problem collected (file, line, dotted key):
 * the site-file reader uses it for the common keys, each handler's factory for its own.
 */
package org.coalition.handler.config;
