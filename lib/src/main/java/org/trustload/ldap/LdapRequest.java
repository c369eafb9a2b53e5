package org.trustload.ldap;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One LDAP operation and its fields. Which fields matter depends on the operation: search uses
 * base DN, scope, filter, attributes and limits; compare uses entry DN, attribute and value; add
 * and modify use LDIF; delete uses the entry DN.
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

    private LdapRequest(Builder b) {
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
    }

    public static Builder builder(LdapOperation operation) {
        return new Builder(operation);
    }

    public LdapOperation operation() {
        return operation;
    }

    public String baseDn() {
        return baseDn;
    }

    public String scope() {
        return scope;
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

        public LdapRequest build() {
            return new LdapRequest(this);
        }
    }
}
