/**
 * The home side (events 1 and 4 at home): this site's opted-in jobs, each one
 * {@link org.coalition.daemon.home.PublishedJob} moved by {@link org.coalition.daemon.home.PublishedJobLifecycle};
 * parks and their journal, publication and withdrawal, the results that come back checked,
 * fetched and replayed, and the notes its users read in their jobs.
 */
package org.coalition.daemon.home;
