package org.trustload.lab.pdp;

import java.util.Collection;
import java.util.Map;

/**
 * Translates {@link OnapPolicy} objects into one XACML 3.0 root PolicySet for AuthzForce, after the
 * shape of ONAP's own guard templates: the target selects the policy (action, actor, recipe,
 * target regex, clname), a single Permit rule carries the condition (operation count below the limit,
 * {@code vfCount} within [min, max], optional active time range), and {@code deny-unless-permit} turns
 * every other outcome of an applicable policy into Deny. Policies combine with {@code deny-overrides};
 * no applicable policy gives NotApplicable, which each API maps as ONAP defines it.
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
        sb.append("<Policy PolicyId=\"").append(xml(p.policyId())).append("\" Version=\"1\" RuleCombiningAlgId=\"")
                .append("urn:oasis:names:tc:xacml:3.0:rule-combining-algorithm:deny-unless-permit\">\n");
        sb.append("<Description>").append(xml(p.kind().provider)).append("</Description>\n<Target><AnyOf><AllOf>\n");
        switch (p.kind()) {
            case GUARD, GUARD_MIN_MAX -> {
                match(sb, "string-equal", STRING, ACTION_GUARD, ACTION, ACTION_ID);
                required(sb, p, "actor", ACTOR);
                required(sb, p, "recipe", RECIPE);
                String targets = p.attr("targets");
                if (!targets.isEmpty()) {
                    match(sb, "string-regexp-match", STRING, targets, RESOURCE, TARGET);
                }
                optional(sb, p, "clname", CLNAME);
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
        sb.append("</AllOf></AnyOf></Target>\n<Rule RuleId=\"").append(xml(p.policyId())).append(":permit\" Effect=\"Permit\">\n");
        StringBuilder cond = new StringBuilder();
        int terms = 0;
        if (p.kind() == OnapPolicy.Kind.GUARD) {
            long limit = positive(p, "limit");
            cond.append("<Apply FunctionId=\"").append(F).append("integer-less-than\">");
            oneAndOnly(cond, "integer", RESOURCE, OPERATION_COUNT, INTEGER, windowIssuer(p));
            value(cond, INTEGER, Long.toString(limit));
            cond.append("</Apply>\n");
            terms++;
        } else if (p.kind() == OnapPolicy.Kind.GUARD_MIN_MAX) {
            long min = number(p, "min");
            long max = number(p, "max");
            if (min > max) {
                throw PdpException.badRequest("min (" + min + ") is greater than max (" + max + ")");
            }
            cond.append("<Apply FunctionId=\"").append(F).append("integer-greater-than-or-equal\">");
            oneAndOnly(cond, "integer", RESOURCE, VF_COUNT, INTEGER, null);
            value(cond, INTEGER, Long.toString(min));
            cond.append("</Apply>\n<Apply FunctionId=\"").append(F).append("integer-less-than-or-equal\">");
            oneAndOnly(cond, "integer", RESOURCE, VF_COUNT, INTEGER, null);
            value(cond, INTEGER, Long.toString(max));
            cond.append("</Apply>\n");
            terms += 2;
        }
        if (p.kind() != OnapPolicy.Kind.CONFIG_BASE) {
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
        }
        if (terms > 0) {
            sb.append("<Condition>");
            if (terms > 1) {
                sb.append("<Apply FunctionId=\"").append(F).append("and\">").append(cond).append("</Apply>");
            } else {
                sb.append(cond);
            }
            sb.append("</Condition>\n");
        }
        sb.append("</Rule>\n</Policy>\n");
    }

    private static void required(StringBuilder sb, OnapPolicy p, String key, String id) throws PdpException {
        String v = p.attr(key);
        if (v.isEmpty()) {
            throw PdpException.badRequest("attributes.MATCHING." + key + " is required for a " + p.kind().provider + " policy");
        }
        match(sb, "string-equal", STRING, v, RESOURCE, id);
    }

    private static void optional(StringBuilder sb, OnapPolicy p, String key, String id) {
        String v = p.attr(key);
        if (!v.isEmpty()) {
            match(sb, "string-equal", STRING, v, RESOURCE, id);
        }
    }

    private static void match(StringBuilder sb, String function, String type, String value, String category, String id) {
        sb.append("<Match MatchId=\"").append(F).append(function).append("\">");
        value(sb, type, value);
        designator(sb, category, id, type, null, false);
        sb.append("</Match>\n");
    }

    private static void oneAndOnly(StringBuilder sb, String type, String category, String id, String dataType, String issuer) {
        sb.append("<Apply FunctionId=\"").append(F).append(type).append("-one-and-only\">");
        designator(sb, category, id, dataType, issuer, true);
        sb.append("</Apply>");
    }

    private static void designator(StringBuilder sb, String category, String id, String type, String issuer, boolean mustBePresent) {
        sb.append("<AttributeDesignator Category=\"").append(category).append("\" AttributeId=\"").append(id)
                .append("\" DataType=\"").append(type).append("\" MustBePresent=\"").append(mustBePresent).append('"');
        if (issuer != null) {
            sb.append(" Issuer=\"").append(xml(issuer)).append('"');
        }
        sb.append("/>");
    }

    private static void value(StringBuilder sb, String type, String value) {
        sb.append("<AttributeValue DataType=\"").append(type).append("\">").append(xml(value)).append("</AttributeValue>");
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
            throw PdpException.badRequest("attributes.MATCHING." + key + " must be a time such as 00:00:01-05:00, not \"" + v + "\"");
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
