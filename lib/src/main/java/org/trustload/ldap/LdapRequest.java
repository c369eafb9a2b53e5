package org.trustload.ldap;

import com.unboundid.ldap.sdk.SearchScope;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One LDAP operation and its fields. Which fields matter depends on the operation: search uses
 * base DN, scope, filter, attributes and limits; compare uses entry DN, attribute and value; add
 * and modify use LDIF; delete uses the entry DN. Built with {@link Builder#build(LdapValue.Source)}, the
 * base DN, filter and entry DN are {@link LdapValue value patterns}: {@link #draw()} gives the request to
 * send with this time's values.
 */
public final class LdapRequest {
    private final LdapOperation operation;
    private final String baseDn;
    private final String scope;
    private final String filter;
    private final List<String> attributes;
    private final int sizeLimit;
    private final int timeLimitSeconds;
    private final String entryDn;
    private final String compareAttribute;
    private final String compareValue;
    private final String ldif;
    /**
     * The scope as the SDK's value, parsed once (null when it does not parse: {@link #searchScope()} then says why).
     */
    private final SearchScope searchScope;
    /** The varying values (null when the value is fixed). */
    private final LdapValue baseDnPattern;
    private final LdapValue filterPattern;
    private final LdapValue entryDnPattern;

    private LdapRequest(Builder b, LdapValue baseDnPattern, LdapValue filterPattern, LdapValue entryDnPattern) {
        operation = b.operation;
        baseDn = b.baseDn;
        scope = b.scope;
        filter = b.filter;
        attributes = b.attributes;
        sizeLimit = b.sizeLimit;
        timeLimitSeconds = b.timeLimitSeconds;
        entryDn = b.entryDn;
        compareAttribute = b.compareAttribute;
        compareValue = b.compareValue;
        ldif = b.ldif;
        this.baseDnPattern = baseDnPattern;
        this.filterPattern = filterPattern;
        this.entryDnPattern = entryDnPattern;
        SearchScope parsed;
        try {
            parsed = SearchScopes.parse(scope);
        } catch (LdapClientException e) {
            parsed = null;
        }
        searchScope = parsed;
    }

    /** This request with fixed values drawn from {@code r}'s patterns. */
    private LdapRequest(LdapRequest r) {
        operation = r.operation;
        baseDn = r.baseDnPattern == null ? r.baseDn : r.baseDnPattern.next();
        scope = r.scope;
        filter = r.filterPattern == null ? r.filter : r.filterPattern.next();
        attributes = r.attributes;
        sizeLimit = r.sizeLimit;
        timeLimitSeconds = r.timeLimitSeconds;
        entryDn = r.entryDnPattern == null ? r.entryDn : r.entryDnPattern.next();
        compareAttribute = r.compareAttribute;
        compareValue = r.compareValue;
        ldif = r.ldif;
        searchScope = r.searchScope;
        baseDnPattern = null;
        filterPattern = null;
        entryDnPattern = null;
    }

    public static Builder builder(LdapOperation operation) {
        return new Builder(operation);
    }

    /** Whether a value varies per request (a value pattern). */
    public boolean varies() {
        return baseDnPattern != null || filterPattern != null || entryDnPattern != null;
    }

    /** The request to send now: this one, or a copy with the next value of each pattern. */
    public LdapRequest draw() {
        return varies() ? new LdapRequest(this) : this;
    }

    public LdapOperation operation() {
        return operation;
    }

    /** The base DN (as written: the pattern before {@link #draw()}). */
    public String baseDn() {
        return baseDn;
    }

    public String scope() {
        return scope;
    }

    /** The scope as the SDK's value; a scope that is none of base, one, sub is a configuration error. */
    public SearchScope searchScope() throws LdapClientException {
        return searchScope != null ? searchScope : SearchScopes.parse(scope);
    }

    public String filter() {
        return filter;
    }

    public List<String> attributes() {
        return attributes;
    }

    public int sizeLimit() {
        return sizeLimit;
    }

    public int timeLimitSeconds() {
        return timeLimitSeconds;
    }

    public String entryDn() {
        return entryDn;
    }

    public String compareAttribute() {
        return compareAttribute;
    }

    public String compareValue() {
        return compareValue;
    }

    public String ldif() {
        return ldif;
    }

    /** Builds {@link LdapRequest}. */
    public static final class Builder {
        private final LdapOperation operation;
        private String baseDn = "";
        private String scope = "sub";
        private String filter = "(objectClass=*)";
        private List<String> attributes = List.of();
        private int sizeLimit;
        private int timeLimitSeconds;
        private String entryDn = "";
        private String compareAttribute = "";
        private String compareValue = "";
        private String ldif = "";

        private Builder(LdapOperation operation) {
            this.operation = Objects.requireNonNull(operation);
        }

        public Builder baseDn(String v) {
            baseDn = v == null ? "" : v.trim();
            return this;
        }

        public Builder scope(String v) {
            scope = v == null ? "" : v.trim();
            return this;
        }

        public Builder filter(String v) {
            filter = v == null ? "" : v.trim();
            return this;
        }

        /** Attributes to return, comma or blank separated; empty means all user attributes. */
        public Builder attributes(String v) {
            attributes = v == null || v.isBlank() ? List.of()
                    : Arrays.stream(v.split("[,\\s]+")).filter(a -> !a.isEmpty()).collect(Collectors.toList());
            return this;
        }

        /** 0 means no client-side limit. */
        public Builder sizeLimit(int v) {
            sizeLimit = v;
            return this;
        }

        /** 0 means no limit. */
        public Builder timeLimitSeconds(int v) {
            timeLimitSeconds = v;
            return this;
        }

        public Builder entryDn(String v) {
            entryDn = v == null ? "" : v.trim();
            return this;
        }

        public Builder compareAttribute(String v) {
            compareAttribute = v == null ? "" : v.trim();
            return this;
        }

        public Builder compareValue(String v) {
            compareValue = v == null ? "" : v;
            return this;
        }

        /** For add: the entry in LDIF. For modify: an LDIF change record, or just its change lines. */
        public Builder ldif(String v) {
            ldif = v == null ? "" : v;
            return this;
        }

        /** The request with its values taken literally. */
        public LdapRequest build() {
            return new LdapRequest(this, null, null, null);
        }

        /**
         * The request with base DN, filter and entry DN read as value patterns from {@code patterns} (which
         * compiles and shares them); a bad pattern is a configuration error naming the property.
         */
        public LdapRequest build(LdapValue.Source patterns) throws LdapClientException {
            return new LdapRequest(this, varying(patterns, "baseDn", baseDn), varying(patterns, "filter", filter),
                    varying(patterns, "entryDn", entryDn));
        }

        private static LdapValue varying(LdapValue.Source patterns, String property, String text)
                throws LdapClientException {
            LdapValue v = patterns.value(property, text);
            return v.varies() ? v : null;
        }
    }
}
