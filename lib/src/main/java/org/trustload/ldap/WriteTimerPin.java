package org.trustload.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/**
 * Keeps UnboundID's shared "Write Timeout Handler Timer" thread alive for the length of a test.
 *
 * <p>UnboundID 7.0.3 gives every connection a write-timeout task on one shared {@link java.util.Timer}
 * and cancels that timer (its thread ends) when the last connection closes. Per iteration, one
 * thread opening and closing one connection at a time, that is a new timer thread per iteration:
 * {@code strace -c -f} counts one {@code clone3} for it besides the connect thread. Holding one idle
 * write-timeout task (never registered with a connection, so it never times anything out) keeps the
 * count above zero and the timer thread reused; write timeouts of real connections are unchanged.
 *
 * <p>The task class is package-private in the SDK, so it is reached by reflection; when the SDK
 * changes and that fails, the pin does nothing and the SDK behaves as before.
 */
final class WriteTimerPin implements AutoCloseable {
    private static final String HANDLER = "com.unboundid.ldap.sdk.WriteTimeoutHandler";

    private final Object handler;
    private final Method destroy;

    private WriteTimerPin(Object handler, Method destroy) {
        this.handler = handler;
        this.destroy = destroy;
    }

    /** Pins the timer; never throws. */
    static WriteTimerPin acquire() {
        try {
            Class<?> type = Class.forName(HANDLER, true, LDAPConnection.class.getClassLoader());
            Constructor<?> make = type.getDeclaredConstructor(LDAPConnection.class);
            Method end = type.getDeclaredMethod("destroy");
            make.setAccessible(true);
            end.setAccessible(true);
            return new WriteTimerPin(make.newInstance(new LDAPConnection()), end);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return new WriteTimerPin(null, null);
        }
    }

    /** True when the timer is held (the SDK had the expected shape). */
    boolean active() {
        return handler != null;
    }

    /** Releases the timer: when no connection is open any more, its thread ends. */
    @Override
    public void close() {
        if (handler == null) {
            return;
        }
        try {
            destroy.invoke(handler);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the timer is a daemon thread: at worst it lives until the JVM exits
        }
    }
}
