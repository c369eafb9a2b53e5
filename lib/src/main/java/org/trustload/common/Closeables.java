package org.trustload.common;

import java.io.Closeable;
import java.io.IOException;

/** Closing on a path that is already failing or ending, where a failure to close has nobody to tell. */
public final class Closeables {
    private Closeables() {
    }

    /** Closes {@code c} (null: nothing to close) and ignores what closing throws: best effort. */
    public static void closeQuietly(Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException | RuntimeException ignored) {
                // nothing left to release, or nothing to release it from
            }
        }
    }
}
