package org.trustload.jvmstats;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** Finds {@link StatsSourceFactory}s by name through {@link ServiceLoader}. */
public final class StatsSources {

    private StatsSources() {
    }

    /** The names of every registered source kind. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (StatsSourceFactory f : ServiceLoader.load(StatsSourceFactory.class, StatsSources.class.getClassLoader())) {
            names.add(f.name());
        }
        return names;
    }

    /** Opens a source of the named kind. */
    public static StatsSource open(String kind, SourceConfig config) throws StatsException {
        for (StatsSourceFactory f : ServiceLoader.load(StatsSourceFactory.class, StatsSources.class.getClassLoader())) {
            if (f.name().equals(kind)) {
                return f.open(config);
            }
        }
        throw new StatsException("unknown stats source '" + kind + "' (known: " + String.join(", ", names()) + ")",
                false);
    }
}
