package org.trustload.jmeter.pki;

import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The keys loaded by {@link KeyStoreConfig} elements, by pool name, for the JVM running the test
 * (each distributed engine has its own). Loaded once per test in {@code testStarted}; each thread
 * gets its current key through a thread variable set at every iteration.
 */
public final class KeyPools {
    /** Thread-variable (object) prefix under which the current key of a pool is kept. */
    static final String KEY_OBJECT_PREFIX = "trustload.key.";

    private static final ConcurrentHashMap<String, Pool> POOLS = new ConcurrentHashMap<>();
    /** Why a pool could not be loaded this test: samplers repeat that one error, not "no key pool". */
    private static final ConcurrentHashMap<String, ClientException> FAILED = new ConcurrentHashMap<>();

    private KeyPools() {
    }

    /** A loaded pool and its hand-out counter. */
    static final class Pool {
        final List<KeyMaterial> keys;
        final AtomicInteger next = new AtomicInteger();

        Pool(List<KeyMaterial> keys) {
            this.keys = List.copyOf(keys);
        }

        /** Round robin over the pool, safe from any thread. */
        KeyMaterial take() {
            return keys.get(Math.floorMod(next.getAndIncrement(), keys.size()));
        }
    }

    static void register(String name, List<KeyMaterial> keys) {
        FAILED.remove(name);
        POOLS.put(name, new Pool(keys));
    }

    /** The pool's Key Store Config could not load it: {@code why} names its element, property and file. */
    static void failed(String name, ClientException why) {
        POOLS.remove(name);
        FAILED.put(name, why);
    }

    static void remove(String name) {
        POOLS.remove(name);
        FAILED.remove(name);
    }

    static Pool pool(String name) {
        return POOLS.get(name);
    }

    /**
     * The key this thread uses now: the one its Key Store Config assigned for this iteration, or
     * (no iteration event seen yet) the next one of the pool.
     */
    public static KeyMaterial current(String poolName) throws ClientException {
        String name = poolName == null || poolName.isBlank() ? "default" : poolName.trim();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null) {
            Object o = vars.getObject(KEY_OBJECT_PREFIX + name);
            if (o instanceof KeyMaterial) {
                return (KeyMaterial) o;
            }
        }
        Pool pool = POOLS.get(name);
        if (pool == null && FAILED.containsKey(name)) {
            throw FAILED.get(name);
        }
        if (pool == null) {
            throw new PkiException(PkiException.CONFIG_ERROR, "no key pool '" + name
                    + "': add a Key Store Config with this pool name");
        }
        return pool.take();
    }
}
