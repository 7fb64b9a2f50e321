/**
 * The DRMAA 1.0 Java language binding (OGF GFD.130 and the binding document of 2007): the
 * interfaces a DRMAA program is written against, with no implementation in them.
 *
 * <p>A program asks {@link org.ggf.drmaa.SessionFactory#getFactory()} for the factory of the
 * implementation in use, takes a {@link org.ggf.drmaa.Session} from it, and works through that.
 * Collections are typed here ({@code List<String>} where the standard has a raw {@code List});
 * their erasure is the standard's, so a program compiled against another copy of this package
 * links against this one and the reverse. The module's README says how that is checked.
 */
package org.ggf.drmaa;
