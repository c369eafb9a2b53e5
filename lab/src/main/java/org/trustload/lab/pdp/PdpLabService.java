package org.trustload.lab.pdp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabHttp;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.lab.SelfSignedTls;
import org.trustload.lab.Tally;

/**
 * The {@code pdp} lab service: an XACML PDP (AuthzForce) behind ONAP's legacy PDP-X API and the current
 * {@code /policy/pdpx/v1} decision API, over HTTP and HTTPS, with the lab JVM's MBeans over JMX on
 * 127.0.0.1 so a load test can watch the PDP's GC and CPU. See {@code docs/lab.md} for the API.
 */
public final class PdpLabService implements LabService {
    static {
        LabHttp.noDelay();
    }

    /** Port offset of the HTTP listener. */
    public static final int HTTP_OFFSET = 8800;
    /** Port offset of the HTTPS listener. */
    public static final int HTTPS_OFFSET = 8801;
    /** Port offset of the JMX registry and connector server (127.0.0.1 only). */
    public static final int JMX_OFFSET = 8802;

    /*
     * User names are ONAP's defaults: the PDP's user ({@code Authorization}), the client ({@code ClientAuth})
     * and the current API's user. Passwords are random per lab process (LabSecrets), never ONAP's public
     * defaults or a word: a secrets check could not tell such a password from ordinary text.
     */
    static final String USER = "testpdp";
    static final String PASSWORD = LabSecrets.generate();
    static final String CLIENT_USER = "python";
    static final String CLIENT_PASSWORD = LabSecrets.generate();
    static final String ENVIRONMENT = "TEST";
    static final String PDPX_USER = "healthcheck";
    static final String PDPX_PASSWORD = LabSecrets.generate();
    static final String TLS_PASSWORD = LabSecrets.generate();

    static final int MAX_BODY = 1024 * 1024;
    static final int THREADS = Integer.getInteger("trustload.lab.pdp.threads",
            Math.max(16, 4 * Runtime.getRuntime().availableProcessors()));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> properties = new LinkedHashMap<>();
    /** Created policies (PAP), by the name given at creation; case-sensitive like ONAP's. */
    private final Map<String, OnapPolicy> created = new ConcurrentHashMap<>();
    /** TOSCA policies of the current API (policy-api, PAP): monitoring, naming, optimization. */
    private final ToscaPolicies tosca = new ToscaPolicies(JSON);
    /** Decisions of the current API by outcome, for {@code /policy/pdpx/v1/statistics}. */
    private final AtomicLong permits = new AtomicLong();
    private final AtomicLong denies = new AtomicLong();
    private final AtomicLong notApplicables = new AtomicLong();
    private final AtomicLong indeterminates = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private HttpServer http;
    private HttpsServer https;
    private ExecutorService workers;
    private SelfSignedTls tls;
    private LoopbackJmx jmx;
    private XacmlPdp pdp;
    private boolean closed;

    @Override
    public String name() {
        return "pdp";
    }

    @Override
    public synchronized void start(LabContext ctx) throws Exception {
        int httpPort = ctx.port(HTTP_OFFSET);
        int httpsPort = ctx.port(HTTPS_OFFSET);
        http = LabHttp.bind(HttpServer.create(), ctx, httpPort, "pdp");
        https = LabHttp.bind(HttpsServer.create(), ctx, httpsPort, "pdp");
        jmx = LoopbackJmx.start(ctx.port(JMX_OFFSET));
        pdp = new XacmlPdp(ctx.socketDir().resolve("pdp"));
        // build the (empty) engine now: class loading and JAXB set-up cost ~1 s, not on the first request
        pdp.guard(new XacmlPdp.GuardRequest("warm-up", false, "warm-up", "warm-up", "warm-up", null, null));
        tls = SelfSignedTls.generate(ctx.socketDir(), "pdp", TLS_PASSWORD);

        workers = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "pdp-lab-http");
            t.setDaemon(true);
            return t;
        });
        for (HttpServer s : new HttpServer[] {http, https}) {
            s.setExecutor(workers);
            s.createContext("/", ex -> serve(ex, e -> {
                throw new PdpException(404, "notFound", "no such resource: " + e.getRequestURI().getPath());
            }));
            s.createContext("/pdp/api/createPolicy", ex -> serve(ex, this::createPolicy));
            s.createContext("/pdp/api/pushPolicy", ex -> serve(ex, this::pushPolicy));
            s.createContext("/pdp/api/deletePolicy", ex -> serve(ex, this::deletePolicy));
            s.createContext("/pdp/api/getDecision", ex -> serve(ex, this::getDecision));
            s.createContext("/pdp/api/getConfig", ex -> serve(ex, this::getConfig));
            s.createContext("/pdp/lab/operations", ex -> serve(ex, this::recordOperation));
            s.createContext("/policy/pdpx/v1/decision", ex -> serve(ex, this::decision));
            s.createContext("/policy/pdpx/v1/healthcheck", ex -> serve(ex, this::healthcheck));
            s.createContext("/policy/pdpx/v1/statistics", ex -> serve(ex, this::statistics));
            s.createContext("/policy/api/v1/policytypes/", ex -> serve(ex, this::createToscaPolicies));
            s.createContext("/policy/pap/v1/pdps/policies", ex -> serve(ex, this::deployToscaPolicies));
        }
        https.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
        http.start();
        https.start();

        String host = LabContext.HOST;
        properties.put("pdp.host", host);
        properties.put("pdp.port", String.valueOf(httpPort));
        properties.put("pdp.https.port", String.valueOf(httpsPort));
        properties.put("pdp.protocol", "http");
        properties.put("pdp.url", "http://" + host + ":" + httpPort);
        properties.put("pdp.https.url", "https://" + host + ":" + httpsPort);
        properties.put("pdp.user", USER);
        properties.put("pdp.password", PASSWORD);
        properties.put("pdp.client.user", CLIENT_USER);
        properties.put("pdp.client.password", CLIENT_PASSWORD);
        properties.put("pdp.environment", ENVIRONMENT);
        properties.put("pdpx.user", PDPX_USER);
        properties.put("pdpx.password", PDPX_PASSWORD);
        properties.put("pdp.truststore", tls.trustStore().toAbsolutePath().toString());
        properties.put("pdp.truststore.password", tls.password());
        properties.put("pdp.truststore.type", "PKCS12");
        properties.put("pdp.truststore.pem", tls.pem().toAbsolutePath().toString());
        properties.put("pdp.jmx.url", jmx.url());
        properties.put("pdp.jmx.host", host);
        properties.put("pdp.jmx.port", String.valueOf(ctx.port(JMX_OFFSET)));
        properties.put("pdp.pid", String.valueOf(ProcessHandle.current().pid()));
    }

    @Override
    public Map<String, String> properties() {
        return properties;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LabHttp.stop(workers, http, https);
        actors.print("pdp", "guard decisions", "actors");
        if (jmx != null) {
            jmx.close();
        }
        if (pdp != null) {
            pdp.close();
        }
        if (tls != null) {
            tls.delete();
        }
    }

    /* ---------------------------------------------------------------- legacy API (/pdp/api) */

    private Reply createPolicy(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "PUT");
        JsonNode body = body(ex);
        String name = text(body, "policyName", true);
        if (name.lastIndexOf('.') <= 0 || name.endsWith(".")) {
            throw PdpException.badRequest("policyName must be scope.name, e.g. com.testGuard001, not \"" + name + "\"");
        }
        Map<String, String> matching = matching(body.path("attributes").path("MATCHING"));
        OnapPolicy.Kind kind = kind(body);
        String onapName = text(body, "onapName", false);
        if (onapName.isEmpty()) {
            onapName = text(body, "ecompName", false);
        }
        OnapPolicy p;
        if (kind == OnapPolicy.Kind.CONFIG_BASE) {
            if (onapName.isEmpty()) {
                throw PdpException.badRequest("onapName is required for a Config Base policy");
            }
            p = new OnapPolicy(name, kind, matching, onapName, text(body, "configName", true),
                    text(body, "configBody", true), orDefault(text(body, "configBodyType", false), "OTHER"));
        } else {
            String targets = matching.getOrDefault("targets", "");
            try {
                Pattern.compile(targets);
            } catch (PatternSyntaxException e) {
                throw PdpException.badRequest("attributes.MATCHING.targets is not a regular expression: " + e.getDescription());
            }
            p = new OnapPolicy(name, kind, matching, onapName, "", "", "");
        }
        XacmlTranslator.policy(new StringBuilder(), p);
        if (created.putIfAbsent(name, p) != null) {
            throw new PdpException(409, "policyExists", "a policy named " + name + " exists already; delete it first");
        }
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --Policy with the name " + p.storedName()
                + " was successfully created.");
    }

    private static OnapPolicy.Kind kind(JsonNode body) throws PdpException {
        String configType = body.path("policyConfigType").asText("");
        if (!configType.isEmpty()) {
            if (configType.equalsIgnoreCase("Base")) {
                return OnapPolicy.Kind.CONFIG_BASE;
            }
            throw PdpException.badRequest("policyConfigType " + configType + " is not served by the lab (Base only)");
        }
        String policyClass = body.path("policyClass").asText("Decision");
        if (!policyClass.equalsIgnoreCase("Decision")) {
            throw PdpException.badRequest("policyClass " + policyClass + " needs policyConfigType Base; the lab serves Decision and Config Base");
        }
        String provider = body.path("ruleProvider").asText("");
        for (OnapPolicy.Kind k : OnapPolicy.Kind.values()) {
            if (k.policyType.equals("Decision") && k.provider.equalsIgnoreCase(provider)) {
                return k;
            }
        }
        throw PdpException.badRequest("ruleProvider \"" + provider + "\" is not served by the lab (GUARD_YAML or GUARD_MIN_MAX)");
    }

    private Reply pushPolicy(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "PUT");
        JsonNode body = body(ex);
        OnapPolicy p = find(text(body, "policyName", true), text(body, "policyType", false));
        String group = orDefault(text(body, "pdpGroup", false), "default");
        pdp.deploy(p);
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --Policy '" + p.storedName()
                + "' was successfully pushed to the PDP group '" + group + "'.");
    }

    private Reply deletePolicy(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "DELETE");
        JsonNode body = body(ex);
        OnapPolicy p = find(text(body, "policyName", true), text(body, "policyType", false));
        String component = text(body, "policyComponent", false);
        if (component.isEmpty()) {
            throw onapDataIssue("No Policy Component given.");
        }
        if (component.equalsIgnoreCase("PDP")) {
            if (text(body, "pdpGroup", false).isEmpty()) {
                throw onapDataIssue("No PDP Group given.");
            }
            if (!pdp.undeploy(p)) {
                throw onapDataIssue(p.storedName() + " is not deployed on the PDP group: the policy does not exist there");
            }
        } else if (component.equalsIgnoreCase("PAP")) {
            if (text(body, "deleteCondition", false).isEmpty()) {
                throw onapDataIssue("No Delete Condition given.");
            }
            pdp.undeploy(p);
            created.remove(p.name());
        } else {
            throw onapDataIssue("Policy Component does not exist. Please enter either PAP or PDP to delete the policy from a"
                    + " specified Policy Component.");
        }
        return Reply.text(200, "Transaction ID: " + UUID.randomUUID() + " --The policy " + p.storedName()
                + " was successfully deleted from the " + component.toUpperCase(Locale.ROOT) + ".");
    }

    /** ONAP's policyType values of pushPolicy and deletePolicy (PushPolicyService, DeletePolicyService). */
    private static final Set<String> ONAP_POLICY_TYPES = Set.of("firewall", "action", "decision_ms", "decision", "base",
            "closedloop_fault", "closedloop_pm", "microservice", "optimization", "brms_raw", "brms_param");

    /**
     * The policy a push or delete names, as ONAP looks it up: {@code policyType} is required and one of ONAP's
     * types ({@code Base} for a Config Base policy, {@code Decision} for guards; {@code Config} is not one), and
     * selects the stored file ({@code scope.<prefix>name}); names are case-sensitive. ONAP answers every miss
     * 400 with a PE300 data-issue message.
     */
    private OnapPolicy find(String name, String policyType) throws PdpException {
        if (policyType.isEmpty()) {
            throw onapDataIssue("No PolicyType given.");
        }
        if (!ONAP_POLICY_TYPES.contains(policyType.toLowerCase(Locale.ROOT))) {
            throw onapDataIssue(policyType + " is not a valid Policy Type.");
        }
        OnapPolicy p = created.get(name);
        if (p == null) {
            for (OnapPolicy c : created.values()) {
                if (c.storedName().equals(name) || c.policyId().equals(name)) {
                    p = c;
                    break;
                }
            }
        }
        if (p == null || !policyType.equalsIgnoreCase(p.kind().pushType)) {
            throw onapDataIssue("response code of the URL is 404.  This indicates a problem with getting the version from the PAP"
                    + " or the policy does not exist: no " + policyType + " policy named " + name + " (names are case-sensitive)");
        }
        return p;
    }

    /** ONAP's answer to a request it cannot serve: 400 and a message starting {@code PE300 - Data Issue: }. */
    private static PdpException onapDataIssue(String message) {
        return PdpException.badRequest("PE300 - Data Issue: " + message);
    }

    private Reply getDecision(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        String onapName = text(body, "onapName", false);
        if (onapName.isEmpty()) {
            onapName = text(body, "ecompName", false);
        }
        if (onapName.isEmpty()) {
            throw onapDataIssue("No onapComponentName given : onapName is required");
        }
        JsonNode attrs = body.get("decisionAttributes");
        if (attrs == null || !attrs.isObject() || attrs.isEmpty()) {
            throw onapDataIssue("No Decision Attributes Given. decisionAttributes must be a non-empty object");
        }
        // ONAP's guard templates match the requester's ONAPName (a Deny-group request of another onapName gets DENY)
        XacmlPdp.Decision d = pdp.guard(guardRequest(attrs, onapName, false, "recipe", "decisionAttributes"));
        // legacy ONAP: anything but Permit (no applicable policy included) is DENY
        ObjectNode out = JSON.createObjectNode();
        if (d == XacmlPdp.Decision.PERMIT) {
            out.put("decision", "PERMIT").put("details", "Decision Permit. OK!");
        } else {
            out.put("decision", "DENY").put("details", "Decision not a Permit (" + d + ").");
        }
        return Reply.json(200, out);
    }

    private Reply getConfig(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        String onapName = text(body, "onapName", false);
        if (onapName.isEmpty()) {
            onapName = text(body, "ecompName", false);
        }
        if (onapName.isEmpty()) {
            throw PdpException.badRequest("onapName is required");
        }
        Map<String, String> attributes = matching(body.path("configAttributes"));
        List<String> ids = pdp.config(onapName, text(body, "configName", false), attributes);
        ArrayNode out = JSON.createArrayNode();
        for (OnapPolicy p : created.values()) {
            if (ids.contains(p.policyId())) {
                ObjectNode c = out.addObject();
                c.put("policyConfigMessage", "Config Retrieved! ");
                c.put("policyConfigStatus", "CONFIG_RETRIEVED");
                c.put("type", p.configBodyType());
                c.put("config", p.configBody());
                c.put("policyName", p.storedName());
                c.put("policyVersion", "1");
                c.set("matchingConditions", JSON.valueToTree(p.matching()));
            }
        }
        if (out.isEmpty()) {
            ObjectNode c = out.addObject();
            c.put("policyConfigMessage", "No policy matched the request");
            c.put("policyConfigStatus", "CONFIG_NOT_FOUND");
            return Reply.json(404, out);
        }
        return Reply.json(200, out);
    }

    /** Lab only: stands in for the control loop writing ONAP's operations history (guard limits count it). */
    private Reply recordOperation(HttpExchange ex) throws PdpException, IOException {
        legacy(ex, "POST");
        JsonNode body = body(ex);
        pdp.recordOperation(text(body, "actor", true), text(body, "recipe", true), text(body, "target", true));
        return Reply.json(200, JSON.createObjectNode().put("recorded", true));
    }

    /* ---------------------------------------------------------------- current API (/policy/pdpx/v1) */

    private Reply decision(HttpExchange ex) throws PdpException, IOException {
        method(ex, "POST");
        basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
        try {
            return Reply.json(200, decide(ex, body(ex)));
        } catch (PdpException e) {
            errors.incrementAndGet();
            throw e;
        }
    }

    /** One decision of the current API, by action: guard, configure (monitoring), naming, optimize. */
    private ObjectNode decide(HttpExchange ex, JsonNode body) throws PdpException {
        String action = text(body, "action", true);
        JsonNode resource = body.path("resource");
        switch (action) {
            case XacmlTranslator.ACTION_GUARD -> {
                JsonNode guard = resource.path("guard");
                if (!guard.isObject()) {
                    throw PdpException.badRequest("resource.guard must be an object");
                }
                XacmlPdp.Decision d = pdp.guard(guardRequest(guard, null, true, "operation", "resource.guard"));
                (switch (d) {
                    case PERMIT -> permits;
                    case DENY -> denies;
                    case NOT_APPLICABLE -> notApplicables;
                    case INDETERMINATE -> indeterminates;
                }).incrementAndGet();
                // current ONAP: no guard policy applies -> Permit
                String status = d == XacmlPdp.Decision.PERMIT || d == XacmlPdp.Decision.NOT_APPLICABLE ? "Permit" : "Deny";
                ObjectNode out = JSON.createObjectNode().put("status", status);
                out.putObject("advice");
                out.putObject("obligations");
                out.putObject("policies");
                return out;
            }
            case "configure", "naming", "optimize" -> {
                if (!resource.isObject()) {
                    throw PdpException.badRequest("resource must be an object");
                }
                String query = ex.getRequestURI().getRawQuery();
                boolean abbrev = query != null && Arrays.asList(query.split("&")).contains("abbrev=true");
                ObjectNode out = tosca.decide(action, resource, abbrev);
                (out.path("policies").isEmpty() ? notApplicables : permits).incrementAndGet();
                return out;
            }
            default -> throw PdpException.badRequest("No application for action " + action
                    + " (the lab serves guard, configure, naming and optimize)");
        }
    }

    private Reply healthcheck(HttpExchange ex) throws PdpException, IOException {
        method(ex, "GET");
        basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
        ObjectNode out = JSON.createObjectNode();
        out.put("name", "Policy Xacml PDP").put("url", "self").put("healthy", true).put("code", 200).put("message", "alive");
        return Reply.json(200, out);
    }

    private Reply statistics(HttpExchange ex) throws PdpException, IOException {
        method(ex, "GET");
        basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
        ObjectNode out = JSON.createObjectNode();
        out.put("code", 200).put("totalPolicyTypesCount", tosca.deployedTypes().size() + (pdp.deployedCount() > 0 ? 1 : 0))
                .put("totalPoliciesCount", tosca.deployedCount() + pdp.deployedCount()).put("totalErrorCount", errors.get())
                .put("permitDecisionsCount", permits.get()).put("denyDecisionsCount", denies.get())
                .put("indeterminantDecisionsCount", indeterminates.get()).put("notApplicableDecisionsCount", notApplicables.get());
        return Reply.json(200, out);
    }

    /**
     * policy-api: {@code POST /policy/api/v1/policytypes/{type}/versions/{version}/policies} with a TOSCA
     * template answers 201 and the template as stored; {@code DELETE …/policies/{id}/versions/{version}}
     * answers 200 and the deleted policy, 404 when there is no such policy, 406 while PAP has it deployed.
     * As policy-api does, the delete finds the policy by id and version alone (ONAP's own perf.jmx deletes
     * its Min/Max and Frequency Limiter guards under other type names than it created them with).
     */
    private Reply createToscaPolicies(HttpExchange ex) throws PdpException, IOException {
        String path = ex.getRequestURI().getPath();
        Matcher delete = POLICY_VERSION_PATH.matcher(path);
        if (delete.matches()) {
            method(ex, "DELETE");
            basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
            return Reply.json(200, tosca.delete(delete.group(1), delete.group(2)));
        }
        if (!path.matches("/policy/api/v1/policytypes/[^/]+/versions/[^/]+/policies/?")) {
            throw new PdpException(404, "notFound", "no such resource: " + path);
        }
        method(ex, "POST");
        basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
        return Reply.json(201, tosca.create(body(ex)));
    }

    /**
     * PAP: {@code POST /policy/pap/v1/pdps/policies} deploys, {@code DELETE …/policies/{id}} undeploys; both
     * answer 202 Accepted with PAP's pointer to the status URL (PAP deploys asynchronously; the lab at once).
     */
    private Reply deployToscaPolicies(HttpExchange ex) throws PdpException, IOException {
        String rest = ex.getRequestURI().getPath().substring("/policy/pap/v1/pdps/policies".length());
        if (rest.isEmpty() || rest.equals("/")) {
            method(ex, "POST");
            basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
            List<String> ids = new ArrayList<>();
            for (JsonNode p : body(ex).path("policies")) {
                String id = p.path("policy-id").asText("");
                if (id.isEmpty()) {
                    throw PdpException.badRequest("each entry of policies needs a policy-id");
                }
                ids.add(id);
            }
            if (ids.isEmpty()) {
                throw PdpException.badRequest("policies must list at least one {\"policy-id\": …}");
            }
            tosca.deploy(ids);
            return Reply.json(202, papAccepted());
        }
        method(ex, "DELETE");
        basic(ex, "Authorization", PDPX_USER, PDPX_PASSWORD);
        String id = rest.substring(1).split("/")[0];
        if (!tosca.undeploy(id)) {
            throw new PdpException(404, "policyNotFound", "policy " + id + " is not deployed");
        }
        return Reply.json(202, papAccepted());
    }

    /** PAP's answer to an accepted deploy or undeploy ({@code PdpGroupDeployResponse}). */
    private static ObjectNode papAccepted() {
        return JSON.createObjectNode().put("message", "Use the policy status url to fetch the latest status. Kindly note that"
                + " when a policy is successfully undeployed, it will no longer appear in policy status response.")
                .put("uri", "/policy/pap/v1/policies/status");
    }

    /** Guard decisions asked, by actor (each policy of the plans' setUp has its own), printed at stop. */
    private final Tally actors = new Tally();

    private XacmlPdp.GuardRequest guardRequest(JsonNode attrs, String onapName, boolean currentApi, String recipeKey,
                                               String where) throws PdpException {
        Long vfCount = null;
        JsonNode vf = attrs.get("vfCount");
        if (vf != null && !vf.isNull()) {
            try {
                vfCount = vf.isIntegralNumber() ? vf.longValue() : Long.parseLong(vf.asText().trim());
            } catch (NumberFormatException e) {
                throw PdpException.badRequest(where + ".vfCount must be an integer, not \"" + vf.asText() + "\"");
            }
        }
        String actor = textOrNull(attrs, "actor");
        actors.add(String.valueOf(actor));
        return new XacmlPdp.GuardRequest(onapName, currentApi, actor, textOrNull(attrs, recipeKey),
                textOrNull(attrs, "target"), textOrNull(attrs, "clname"), vfCount);
    }

    /* ---------------------------------------------------------------- HTTP plumbing */

    /** policy-api's {@code …/policies/{policyId}/versions/{policyVersion}} (the type segments are not used). */
    private static final Pattern POLICY_VERSION_PATH =
            Pattern.compile("/policy/api/v1/policytypes/[^/]+/versions/[^/]+/policies/([^/]+)/versions/([^/]+)/?");

    private interface Handler {
        Reply handle(HttpExchange ex) throws Exception;
    }

    private record Reply(int status, String contentType, byte[] body) {
        static Reply json(int status, JsonNode node) {
            try {
                return new Reply(status, "application/json", JSON.writeValueAsBytes(node));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        static Reply text(int status, String text) {
            return new Reply(status, "text/plain; charset=UTF-8", text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Runs a handler, turns {@link PdpException}s into JSON errors, adds the request's CPU time as a header. */
    private static void serve(HttpExchange ex, Handler h) throws IOException {
        long cpu0 = LabHttp.threadCpu();
        Reply r;
        try {
            r = h.handle(ex);
        } catch (PdpException e) {
            r = error(e.status(), e.code(), e.getMessage());
        } catch (Exception | Error e) {
            System.err.println("trustload-lab: pdp " + ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + ": " + e);
            r = error(500, "internalError", String.valueOf(e));
        }
        LabHttp.send(ex, cpu0, r.status(), r.contentType(), r.body());
    }

    private static Reply error(int status, String code, String message) {
        return Reply.json(status, JSON.createObjectNode().put("error", code).put("message", message));
    }

    private static void method(HttpExchange ex, String method) throws PdpException {
        if (!ex.getRequestMethod().equals(method)) {
            ex.getResponseHeaders().set("Allow", method);
            throw new PdpException(405, "methodNotAllowed", ex.getRequestMethod() + " is not allowed here; use " + method);
        }
    }

    /** Legacy API: method, then ONAP's three headers (Authorization, ClientAuth, Environment). */
    private static void legacy(HttpExchange ex, String method) throws PdpException {
        method(ex, method);
        basic(ex, "Authorization", USER, PASSWORD);
        clientAuth(ex);
        String env = ex.getRequestHeaders().getFirst("Environment");
        if (env == null || !env.equalsIgnoreCase(ENVIRONMENT)) {
            throw new PdpException(401, "unauthorized", "header Environment must be " + ENVIRONMENT
                    + (env == null ? " (missing)" : ", not " + env));
        }
    }

    /**
     * ONAP's ClientAuth check (PDPApiAuth.checkPermissions): {@code Basic <base64>} or the raw Base64 of
     * {@code user:password} without the prefix, as ONAP's own performance plan sends it.
     */
    private static void clientAuth(HttpExchange ex) throws PdpException {
        String value = ex.getRequestHeaders().getFirst("ClientAuth");
        String v = value == null ? "" : value.trim();
        if (v.regionMatches(true, 0, "Basic ", 0, 6)) {
            v = v.substring(6).trim();
        }
        byte[] got;
        try {
            got = Base64.getDecoder().decode(v);
        } catch (IllegalArgumentException e) {
            got = new byte[0];
        }
        byte[] expected = (CLIENT_USER + ":" + CLIENT_PASSWORD).getBytes(StandardCharsets.UTF_8);
        if (value == null || !MessageDigest.isEqual(got, expected)) {
            // never echo the credentials received
            throw new PdpException(401, "unauthorized", value == null ? "header ClientAuth is missing"
                    : "header ClientAuth has wrong credentials");
        }
    }

    private static void basic(HttpExchange ex, String header, String user, String password) throws PdpException {
        String value = ex.getRequestHeaders().getFirst(header);
        String expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        if (value == null || !MessageDigest.isEqual(value.trim().getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8))) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"pdp\"");
            // never echo the credentials received
            throw new PdpException(401, "unauthorized", value == null ? "header " + header + " (Basic) is missing"
                    : "header " + header + " has wrong credentials");
        }
    }

    private static JsonNode body(HttpExchange ex) throws IOException, PdpException {
        // not closed here: LabHttp.send reads what is left of a too-long body before answering
        byte[] bytes = ex.getRequestBody().readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw new PdpException(413, "requestTooLarge", "the request body exceeds " + MAX_BODY + " bytes");
        }
        if (bytes.length == 0) {
            throw PdpException.badRequest("the request body is empty; expected a JSON object");
        }
        JsonNode node;
        try {
            node = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw PdpException.badRequest("the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw PdpException.badRequest("the request body must be a JSON object");
        }
        return node;
    }

    private static String text(JsonNode body, String field, boolean required) throws PdpException {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || (v.isTextual() && v.asText().isBlank())) {
            if (required) {
                throw PdpException.badRequest("missing field \"" + field + "\"");
            }
            return "";
        }
        if (!v.isValueNode()) {
            throw PdpException.badRequest("field \"" + field + "\" must be a string");
        }
        return v.asText().trim();
    }

    private static String textOrNull(JsonNode attrs, String field) {
        JsonNode v = attrs.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** A flat object of strings (numbers and booleans as text), e.g. attributes.MATCHING. */
    private static Map<String, String> matching(JsonNode node) throws PdpException {
        Map<String, String> out = new LinkedHashMap<>();
        if (node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw PdpException.badRequest("attributes must be an object of strings");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode()) {
                throw PdpException.badRequest("attribute \"" + e.getKey() + "\" must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static String orDefault(String v, String d) {
        return v.isEmpty() ? d : v;
    }

    /** Policies created so far (for tests). */
    List<String> createdNames() {
        return new ArrayList<>(created.keySet());
    }
}
