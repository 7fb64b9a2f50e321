/** The resource-handler SPI every batch system adapter implements, and its value types (job spec, queue snapshot, pilot handle). */
package org.coalition.handler;
