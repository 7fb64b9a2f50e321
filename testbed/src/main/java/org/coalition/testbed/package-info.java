/**
 * How integration tests find the real systems that {@code testbed/up} started.
 *
 * <p>Each started system writes {@code run/<instance>/testbed.properties} under the testbed
 * folder ({@code $COALITION_TESTBED_DIR}, default {@code /var/tmp/coalition-testbed}). A test asks
 * for an instance with {@link org.coalition.testbed.Testbed#require(String)}; a system that is not
 * up is a test failure that says how to start it, never a skip.
 */
package org.coalition.testbed;
