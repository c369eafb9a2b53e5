package org.trustload.lab.pdp;

import java.util.Locale;
import java.util.Map;

/**
 * One policy as ONAP's legacy API creates it: Guard (frequency limit per actor/recipe/target/clname),
 * Guard Min/Max (bounds on {@code vfCount}) or Config Base (a configuration body returned to matching
 * {@code getConfig} requests). {@link XacmlTranslator} turns it into XACML; the engine evaluates it.
 *
 * @param name the name given at creation, {@code scope.name} (e.g. {@code com.testGuard001})
 * @param kind what the policy is
 * @param matching the {@code attributes.MATCHING} map of the create request
 * @param onapName the owner ({@code onapName}, legacy {@code ecompName}); used by Config Base
 * @param configName Config Base {@code configName}; may be empty
 * @param configBody Config Base body, returned as is; empty for guards
 * @param configBodyType Config Base body type (JSON, XML, PROPERTIES, OTHER)
 */
record OnapPolicy(String name, Kind kind, Map<String, String> matching, String onapName, String configName,
                  String configBody, String configBodyType) {

    /** The three policy types the lab translates. */
    enum Kind {
        GUARD("Decision", "Decision", "GUARD_YAML"),
        GUARD_MIN_MAX("Decision", "Decision", "GUARD_MIN_MAX"),
        CONFIG_BASE("Config", "Base", "Base");

        /** The prefix of the stored file name ({@code com.Config_x.1.xml}), ONAP's policy class. */
        final String policyType;
        /**
         * ONAP's {@code policyType} of pushPolicy and deletePolicy: {@code Decision}, and {@code Base} for a Config
         * Base policy (ONAP's PushPolicyService and DeletePolicyService refuse {@code Config}).
         */
        final String pushType;
        /** ONAP's {@code ruleProvider} (decisions) or {@code policyConfigType} (configs). */
        final String provider;

        Kind(String policyType, String pushType, String provider) {
            this.policyType = policyType;
            this.pushType = pushType;
            this.provider = provider;
        }
    }

    /** The scope: the part of the name before the last dot ({@code com}). */
    String scope() {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    /**
     * The name ONAP's PAP stores the policy under and deletePolicy expects: {@code com.Decision_testGuard001.1.xml}.
     */
    String storedName() {
        int dot = name.lastIndexOf('.');
        String local = dot < 0 ? name : name.substring(dot + 1);
        String scope = dot < 0 ? "" : name.substring(0, dot + 1);
        return scope + kind.policyType + "_" + local + ".1.xml";
    }

    /** The XACML PolicyId: the stored name without the version and extension. */
    String policyId() {
        String s = storedName();
        return s.substring(0, s.length() - ".1.xml".length());
    }

    /** A MATCHING attribute, trimmed, or {@code ""}. */
    String attr(String key) {
        String v = matching.get(key);
        return v == null ? "" : v.trim();
    }

    /**
     * ONAP's time units of a guard's window, as used in the Issuer of the count attribute: minute, hour, day,
     * week, month or year, any case (ONAP's DecisionPolicy refuses anything else, seconds included).
     */
    static String timeUnit(String raw) throws PdpException {
        String u = raw.toLowerCase(Locale.ROOT).trim();
        return switch (u) {
            case "minute", "hour", "day", "week", "month", "year" -> u;
            default -> throw PdpException.badRequest(
                    "time Units is not in proper format: timeUnits must be minute, hour, day, "
                    + "week, month or year, not \"" + raw + "\"");
        };
    }
}
