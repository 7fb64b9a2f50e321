/**
 * Small DRMAA programs, each a classic tutorial flow, written against the standard Java binding
 * ({@code org.ggf.drmaa}) and nothing else: they run unchanged on any implementation, chosen by
 * the class path and the {@code org.ggf.drmaa.SessionFactory} system property. Each takes a
 * folder of the batch system's shared file system as its first argument, prints what it sees, and
 * exits 0 when the flow went as the standard says.
 */
package org.coalition.drmaa.examples;
