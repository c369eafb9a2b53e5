package org.trustload.ldap;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The expected-entries rule of a search: it succeeds only when it returns at least {@code minEntries}
 * entries (0 allows empty results). A search against a directory that does not hold what the filter asks
 * for succeeds with 0 entries, and a load test of such searches measures nothing; this rule makes each of
 * them a failed sample ({@value #TOO_FEW_ENTRIES}) and, while no search of the test has found anything,
 * a configuration error naming filter, base and server:
 * <ul>
 * <li>a fixed search (no value pattern in base or filter) that returns nothing will return nothing every
 * time: its first empty answer is the configuration error;</li>
 * <li>a search whose base or filter is a value pattern may draw values that miss: the configuration error
 * comes when its first {@value #PROBES} answers of the test were all empty.</li>
 * </ul>
 * Once any search of it found an entry, empty answers are ordinary failures (entries deleted under
 * load, a sparse pattern), never a configuration error. One rule per search as written, per test, shared
 * by every thread ({@link LdapConnections#entryRule}). Thread-safe.
 */
public final class EntryRule {
    /** Response code of a search that returned fewer entries than expected. */
    public static final String TOO_FEW_ENTRIES = "tooFewEntries";
    /** Empty answers of a varying search, with none found yet, that make it a configuration error. */
    public static final int PROBES = 10;

    private final int minEntries;
    private final String filter;
    private final String base;
    private final String target;
    private final boolean varies;
    private final AtomicBoolean found = new AtomicBoolean();
    private final AtomicInteger empty = new AtomicInteger();

    /**
     * @param written the search as written (its base and filter may be value patterns)
     * @param minEntries at least this many entries; 0 checks nothing
     * @param target the server, as messages name it ({@code ldap://host:port})
     */
    EntryRule(LdapRequest written, int minEntries, String target) {
        this.minEntries = minEntries;
        this.filter = written.filter();
        this.base = written.baseDn();
        this.target = target;
        this.varies = written.varies();
    }

    /** The least number of entries a search must return. */
    public int minEntries() {
        return minEntries;
    }

    /**
     * Checks the answer to {@code sent} (this rule's search with its values drawn).
     *
     * @throws LdapClientException {@value #TOO_FEW_ENTRIES} when it returned fewer than {@code minEntries}
     *     entries; {@code configError} about {@code filter} when it returned none and no search of this rule
     *     found any in this test (at once for a fixed search, after {@value #PROBES} for a varying one)
     */
    public void check(LdapRequest sent, LdapOutcome outcome) throws LdapClientException {
        int n = outcome.entryCount();
        if (n > 0) {
            found.set(true);
        }
        if (n >= minEntries) {
            return;
        }
        if (n == 0 && !found.get()) {
            int emptyAnswers = empty.incrementAndGet();
            if (!varies || emptyAnswers >= PROBES) {
                String message = "search finds no entries: filter " + filter + ", base " + base + ", server " + target
                        + (varies ? " (none in the first " + PROBES + " searches)" : "");
                throw LdapClientException.config("filter", message, "(give a filter and base this directory holds"
                        + " entries for, in the plans -Jfilter=... -Jldap.base=...; or minEntries 0 where empty"
                        + " results are expected)");
            }
        }
        String message =
                (minEntries == 1 ? "search found no entries" : "search found fewer than " + minEntries + " entries")
                + " (filter " + filter + ", base " + base + ")";
        String detail = target + ": search of " + sent.filter() + " under " + sent.baseDn() + " (scope " + sent.scope()
                + ") returned " + n + (n == 1 ? " entry" : " entries") + "; minEntries is " + minEntries
                + " (0 allows empty results)";
        throw LdapClientException.rule(TOO_FEW_ENTRIES, message, detail);
    }
}
