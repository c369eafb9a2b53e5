package org.trustload.lab.pdp;

import java.util.Collection;
import java.util.Map;

/**
 * Translates {@link OnapPolicy} objects into one XACML 3.0 root PolicySet for AuthzForce, after ONAP's legacy
 * guard templates ({@code Decision_GuardPolicyTemplate.xml}, {@code Decision_GuardMinMaxPolicyTemplate.xml} in
 * onap/policy-engine ONAP-PAP-REST): the policy target matches the requester's {@code ONAPName} and the
 * {@code actor}, {@code recipe}, {@code target} and {@code clname} attributes as regular expressions (Min/Max:
 * actor and recipe case-insensitive); the rules combine with {@code permit-unless-deny} and one Deny rule
 * carries the limit (operation count reached, {@code vfCount} outside [min, max]) inside the optional active
 * time range. An applicable guard is therefore Permit unless its limit is hit; no applicable policy gives
 * NotApplicable, which each API maps as ONAP defines it (legacy: DENY, current: Permit).
 */
final class XacmlTranslator {
    static final String ROOT_ID = "root";

    static final String NS = "urn:oasis:names:tc:xacml:3.0:core:schema:wd-17";
    static final String STRING = "http://www.w3.org/2001/XMLSchema#string";
    static final String INTEGER = "http://www.w3.org/2001/XMLSchema#integer";
    static final String TIME = "http://www.w3.org/2001/XMLSchema#time";
    static final String ACTION = "urn:oasis:names:tc:xacml:3.0:attribute-category:action";
    static final String RESOURCE = "urn:oasis:names:tc:xacml:3.0:attribute-category:resource";
    static final String ENVIRONMENT = "urn:oasis:names:tc:xacml:3.0:attribute-category:environment";
    static final String ACTION_ID = "urn:oasis:names:tc:xacml:1.0:action:action-id";
    static final String CURRENT_TIME = "urn:oasis:names:tc:xacml:1.0:environment:current-time";

    /** Action of guard decisions (both APIs). */
    static final String ACTION_GUARD = "guard";
    /** Action of legacy getConfig requests. */
    static final String ACTION_CONFIG = "getConfig";

    // ONAP's guard attribute identifiers
    static final String ACTOR = "urn:org:onap:guard:actor:actor-id";
    static final String RECIPE = "urn:org:onap:guard:operation:operation-id";
    static final String CLNAME = "urn:org:onap:guard:clname:clname-id";
    static final String TARGET = "urn:org:onap:guard:target:target-id";
    static final String VF_COUNT = "urn:org:onap:guard:target:vf-count";
    static final String OPERATION_COUNT = "urn:org:onap:guard:operation:operation-count";
    /** Prefix of the count attribute's Issuer; the suffix names the window ({@code 10:minute}). */
    static final String WINDOW_ISSUER = "urn:org:onap:xacml:guard:tw:";
    static final String ONAP_NAME = "urn:org:onap:onap-name";
    static final String CONFIG_NAME = "urn:org:onap:config-name";
    static final String CONFIG_MATCHING = "urn:org:onap:config:matching:";
    /** Lower-cased actor and recipe: ONAP's Min/Max template matches them case-insensitively ({@code (?i)}). */
    static final String ACTOR_LC = "urn:trustload:lab:guard:actor-lower-case";
    static final String RECIPE_LC = "urn:trustload:lab:guard:recipe-lower-case";
    /**
     * Set on decisions of the current API. ONAP's xacml-pdp guard policies do not match ONAPName, the legacy
     * templates do; a lab guard created through the legacy API applies to a current-API request without it.
     */
    static final String CURRENT_API = "urn:trustload:lab:current-api";

    private static final String F = "urn:oasis:names:tc:xacml:1.0:function:";

    private XacmlTranslator() {
    }

    /** The count attribute's Issuer for a guard window: the PDP supplies one count per window. */
    static String windowIssuer(OnapPolicy p) throws PdpException {
        return WINDOW_ISSUER + window(p) + ":" + OnapPolicy.timeUnit(p.attr("timeUnits"));
    }

    static long window(OnapPolicy p) throws PdpException {
        return positive(p, "timeWindow");
    }

    /** The root PolicySet holding every policy. */
    static String rootPolicySet(Collection<OnapPolicy> policies) throws PdpException {
        StringBuilder sb = new StringBuilder(1024 + 1500 * policies.size());
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<PolicySet xmlns=\"").append(NS)
                .append("\" PolicySetId=\"").append(ROOT_ID).append("\" Version=\"1.0\" PolicyCombiningAlgId=\"")
                .append("urn:oasis:names:tc:xacml:3.0:policy-combining-algorithm:deny-overrides\">\n<Target/>\n");
        for (OnapPolicy p : policies) {
            policy(sb, p);
        }
        return sb.append("</PolicySet>\n").toString();
    }

    static void policy(StringBuilder sb, OnapPolicy p) throws PdpException {
        boolean config = p.kind() == OnapPolicy.Kind.CONFIG_BASE;
        sb.append("<Policy PolicyId=\"").append(xml(p.policyId())).append("\" Version=\"1\" RuleCombiningAlgId=\"")
                .append("urn:oasis:names:tc:xacml:3.0:rule-combining-algorithm:")
                .append(config ? "deny-unless-permit" : "permit-unless-deny").append("\">\n");
        sb.append("<Description>").append(xml(p.kind().provider)).append("</Description>\n<Target><AnyOf><AllOf>\n");
        switch (p.kind()) {
            case GUARD, GUARD_MIN_MAX -> {
                match(sb, "string-equal", STRING, ACTION_GUARD, ACTION, ACTION_ID);
                boolean minMax = p.kind() == OnapPolicy.Kind.GUARD_MIN_MAX;
                regex(sb, required(p, "actor"), minMax, minMax ? ACTOR_LC : ACTOR);
                regex(sb, required(p, "recipe"), minMax, minMax ? RECIPE_LC : RECIPE);
                regex(sb, p.attr("targets"), false, TARGET);
                regex(sb, p.attr("clname"), false, CLNAME);
                // ONAPName (a regex in ONAP's template) or a current-API request: a second AnyOf, ANDed with the first
                sb.append("</AllOf></AnyOf>\n<AnyOf><AllOf>\n");
                match(sb, "string-regexp-match", STRING, p.onapName().isEmpty() ? ".*" : p.onapName(),
                        RESOURCE, ONAP_NAME);
                sb.append("</AllOf><AllOf>\n");
                match(sb, "string-equal", STRING, "true", RESOURCE, CURRENT_API);
            }
            case CONFIG_BASE -> {
                match(sb, "string-equal", STRING, ACTION_CONFIG, ACTION, ACTION_ID);
                match(sb, "string-equal", STRING, p.onapName(), RESOURCE, ONAP_NAME);
                if (!p.configName().isEmpty()) {
                    match(sb, "string-equal", STRING, p.configName(), RESOURCE, CONFIG_NAME);
                }
                for (Map.Entry<String, String> e : p.matching().entrySet()) {
                    match(sb, "string-equal", STRING, e.getValue(), RESOURCE, CONFIG_MATCHING + e.getKey());
                }
            }
        }
        sb.append("</AllOf></AnyOf></Target>\n");
        if (config) {
            sb.append("<Rule RuleId=\"").append(xml(p.policyId())).append(":permit\" Effect=\"Permit\"/>\n</Policy>\n");
            return;
        }
        // ONAP's templates: Deny inside the active time range when the limit is hit; Permit otherwise
        StringBuilder cond = new StringBuilder();
        int terms = 0;
        if (p.kind() == OnapPolicy.Kind.GUARD) {
            long limit = positive(p, "limit");
            cond.append("<Apply FunctionId=\"").append(F).append("integer-greater-than-or-equal\">");
            oneAndOnly(cond, "integer", RESOURCE, OPERATION_COUNT, INTEGER, windowIssuer(p));
            value(cond, INTEGER, Long.toString(limit));
            cond.append("</Apply>\n");
            terms++;
        } else {
            long min = number(p, "min");
            long max = number(p, "max");
            if (min > max) {
                throw PdpException.badRequest("min (" + min + ") is greater than max (" + max + ")");
            }
            cond.append("<Apply FunctionId=\"").append(F).append("or\"><Apply FunctionId=\"").append(F)
                    .append("integer-less-than\">");
            oneAndOnly(cond, "integer", RESOURCE, VF_COUNT, INTEGER, null);
            value(cond, INTEGER, Long.toString(min));
            cond.append("</Apply>\n<Apply FunctionId=\"").append(F).append("integer-greater-than\">");
            oneAndOnly(cond, "integer", RESOURCE, VF_COUNT, INTEGER, null);
            value(cond, INTEGER, Long.toString(max));
            cond.append("</Apply></Apply>\n");
            terms++;
        }
        String start = p.attr("guardActiveStart");
        String end = p.attr("guardActiveEnd");
        if (!start.isEmpty() || !end.isEmpty()) {
            if (start.isEmpty() || end.isEmpty()) {
                throw PdpException.badRequest("guardActiveStart and guardActiveEnd go together");
            }
            cond.append("<Apply FunctionId=\"urn:oasis:names:tc:xacml:2.0:function:time-in-range\">");
            oneAndOnly(cond, "time", ENVIRONMENT, CURRENT_TIME, TIME, null);
            value(cond, TIME, time(start, "guardActiveStart"));
            value(cond, TIME, time(end, "guardActiveEnd"));
            cond.append("</Apply>\n");
            terms++;
        }
        sb.append("<Rule RuleId=\"").append(xml(p.policyId())).append(":deny\" Effect=\"Deny\">\n<Condition>");
        if (terms > 1) {
            sb.append("<Apply FunctionId=\"").append(F).append("and\">").append(cond).append("</Apply>");
        } else {
            sb.append(cond);
        }
        sb.append("</Condition>\n</Rule>\n</Policy>\n");
    }

    private static String required(OnapPolicy p, String key) throws PdpException {
        String v = p.attr(key);
        if (v.isEmpty()) {
            throw PdpException.badRequest("attributes.MATCHING." + key + " is required for a "
                    + p.kind().provider + " policy");
        }
        return v;
    }

    /**
     * A policy value matched as a regular expression, as ONAP's templates do ({@code string-regexp-match}); an
     * empty value adds no match. Case-insensitive matching compares lower-cased values: XML Schema regular
     * expressions (AuthzForce) have no {@code (?i)}.
     */
    private static void regex(StringBuilder sb, String regex, boolean ignoreCase, String id) throws PdpException {
        if (regex.isEmpty()) {
            return;
        }
        String r = ignoreCase ? regex.toLowerCase(java.util.Locale.ROOT) : regex;
        try {
            java.util.regex.Pattern.compile(r);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw PdpException.badRequest("\"" + regex + "\" is not a regular expression: " + e.getDescription());
        }
        match(sb, "string-regexp-match", STRING, r, RESOURCE, id);
    }

    private static void match(StringBuilder sb, String function, String type, String value,
            String category, String id) {
        sb.append("<Match MatchId=\"").append(F).append(function).append("\">");
        value(sb, type, value);
        designator(sb, category, id, type, null, false);
        sb.append("</Match>\n");
    }

    private static void oneAndOnly(StringBuilder sb, String type, String category, String id,
            String dataType, String issuer) {
        sb.append("<Apply FunctionId=\"").append(F).append(type).append("-one-and-only\">");
        designator(sb, category, id, dataType, issuer, true);
        sb.append("</Apply>");
    }

    private static void designator(StringBuilder sb, String category, String id, String type, String issuer,
            boolean mustBePresent) {
        sb.append("<AttributeDesignator Category=\"").append(category).append("\" AttributeId=\"").append(id)
                .append("\" DataType=\"").append(type).append("\" MustBePresent=\"").append(mustBePresent).append('"');
        if (issuer != null) {
            sb.append(" Issuer=\"").append(xml(issuer)).append('"');
        }
        sb.append("/>");
    }

    private static void value(StringBuilder sb, String type, String value) {
        sb.append("<AttributeValue DataType=\"").append(type).append("\">").append(xml(value))
                .append("</AttributeValue>");
    }

    private static long positive(OnapPolicy p, String key) throws PdpException {
        long v = number(p, key);
        if (v <= 0) {
            throw PdpException.badRequest("attributes.MATCHING." + key + " must be a positive integer");
        }
        return v;
    }

    private static long number(OnapPolicy p, String key) throws PdpException {
        String v = p.attr(key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw PdpException.badRequest("attributes.MATCHING." + key + " must be an integer, not \"" + v + "\"");
        }
    }

    private static String time(String v, String key) throws PdpException {
        // xs:time, e.g. 00:00:01-05:00 as in ONAP's examples
        if (!v.matches("\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)?")) {
            throw PdpException.badRequest("attributes.MATCHING." + key
                    + " must be a time such as 00:00:01-05:00, not \"" + v + "\"");
        }
        return v;
    }

    static String xml(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                        sb.append(' ');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
