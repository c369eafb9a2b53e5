package org.trustload.lab.pdp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import oasis.names.tc.xacml._3_0.core.schema.wd_17.DecisionType;
import org.ow2.authzforce.core.pdp.api.AttributeFqn;
import org.ow2.authzforce.core.pdp.api.AttributeFqns;
import org.ow2.authzforce.core.pdp.api.DecisionRequestBuilder;
import org.ow2.authzforce.core.pdp.api.DecisionResult;
import org.ow2.authzforce.core.pdp.api.policy.PrimaryPolicyMetadata;
import org.ow2.authzforce.core.pdp.api.value.Bags;
import org.ow2.authzforce.core.pdp.api.value.IntegerValue;
import org.ow2.authzforce.core.pdp.api.value.StandardDatatypes;
import org.ow2.authzforce.core.pdp.api.value.StringValue;
import org.ow2.authzforce.core.pdp.impl.BasePdpEngine;
import org.ow2.authzforce.core.pdp.impl.PdpEngineConfiguration;

/**
 * The deployed policies and the AuthzForce engine that evaluates them.
 *
 * <p>A push or delete only marks the set as changed; the next decision rebuilds the engine once from
 * the whole set (one root PolicySet file). A setUp that pushes hundreds of policies so costs one
 * rebuild, not one per push, and every decision still sees every push that returned before it.
 * Decisions run concurrently on an immutable engine snapshot.
 */
final class XacmlPdp implements AutoCloseable {
    /** One answer of the engine. */
    enum Decision { PERMIT, DENY, NOT_APPLICABLE, INDETERMINATE }

    /**
     * A guard decision request (both APIs).
     *
     * @param onapName the requester's ONAPName (legacy API); matched by the legacy guard templates
     * @param currentApi true on {@code /policy/pdpx/v1/decision}, whose guards do not match ONAPName
     */
    record GuardRequest(String onapName, boolean currentApi, String actor, String recipe, String target, String clname,
                        Long vfCount) {
    }

    private record Snapshot(BasePdpEngine engine, Map<String, Long> windowsSeconds, int generation) {
    }

    private static final AttributeFqn ACTION_ID = fqn(XacmlTranslator.ACTION, XacmlTranslator.ACTION_ID);
    private static final AttributeFqn ACTOR = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.ACTOR);
    private static final AttributeFqn RECIPE = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.RECIPE);
    private static final AttributeFqn TARGET = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.TARGET);
    private static final AttributeFqn CLNAME = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.CLNAME);
    private static final AttributeFqn VF_COUNT = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.VF_COUNT);
    private static final AttributeFqn ONAP_NAME = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.ONAP_NAME);
    private static final AttributeFqn CONFIG_NAME = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.CONFIG_NAME);
    private static final AttributeFqn ACTOR_LC = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.ACTOR_LC);
    private static final AttributeFqn RECIPE_LC = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.RECIPE_LC);
    private static final AttributeFqn CURRENT_API = fqn(XacmlTranslator.RESOURCE, XacmlTranslator.CURRENT_API);

    private final Path dir;
    private final Map<String, OnapPolicy> deployed = new LinkedHashMap<>();
    /** Stands in for ONAP's operations-history database: times of operations per actor/recipe/target. */
    private final Map<String, ConcurrentLinkedDeque<Long>> history = new ConcurrentHashMap<>();
    private volatile Snapshot snapshot;
    private volatile boolean dirty = true;
    private int generation;

    XacmlPdp(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /** Deploys (or replaces) a policy; checks that it translates. */
    synchronized void deploy(OnapPolicy p) throws PdpException {
        XacmlTranslator.policy(new StringBuilder(), p);
        deployed.put(p.policyId(), p);
        dirty = true;
    }

    /** Removes a deployed policy; false if it was not deployed. */
    synchronized boolean undeploy(OnapPolicy p) {
        boolean removed = deployed.remove(p.policyId()) != null;
        dirty |= removed;
        return removed;
    }

    synchronized int deployedCount() {
        return deployed.size();
    }

    /** Records one operation now, as the control loop writes it to ONAP's operations history. */
    void recordOperation(String actor, String recipe, String target) {
        history.computeIfAbsent(key(actor, recipe, target), k -> new ConcurrentLinkedDeque<>())
                .add(System.currentTimeMillis());
    }

    /** Evaluates a guard request. */
    Decision guard(GuardRequest r) throws PdpException {
        Snapshot s = current();
        DecisionRequestBuilder<?> b = s.engine().newRequestBuilder(3, 12);
        put(b, ACTION_ID, XacmlTranslator.ACTION_GUARD);
        put(b, ONAP_NAME, r.onapName());
        put(b, CURRENT_API, r.currentApi() ? "true" : null);
        put(b, ACTOR, r.actor());
        put(b, RECIPE, r.recipe());
        put(b, ACTOR_LC, r.actor() == null ? null : r.actor().toLowerCase(java.util.Locale.ROOT));
        put(b, RECIPE_LC, r.recipe() == null ? null : r.recipe().toLowerCase(java.util.Locale.ROOT));
        put(b, TARGET, r.target());
        put(b, CLNAME, r.clname());
        if (r.vfCount() != null) {
            b.putNamedAttributeIfAbsent(VF_COUNT,
                    Bags.singletonAttributeBag(StandardDatatypes.INTEGER, IntegerValue.valueOf(r.vfCount())));
        }
        if (!s.windowsSeconds().isEmpty()) {
            ConcurrentLinkedDeque<Long> ops = history.get(key(r.actor(), r.recipe(), r.target()));
            long now = System.currentTimeMillis();
            for (Map.Entry<String, Long> w : s.windowsSeconds().entrySet()) {
                long count = count(ops, now - w.getValue() * 1000);
                b.putNamedAttributeIfAbsent(AttributeFqns.newInstance(XacmlTranslator.RESOURCE, Optional.of(w.getKey()),
                        XacmlTranslator.OPERATION_COUNT),
                        Bags.singletonAttributeBag(StandardDatatypes.INTEGER, IntegerValue.valueOf(count)));
            }
        }
        return decision(s.engine().evaluate(b.build(false)));
    }

    /** Evaluates a getConfig request; returns the ids of the Config Base policies that permit it. */
    List<String> config(String onapName, String configName, Map<String, String> attributes) throws PdpException {
        Snapshot s = current();
        DecisionRequestBuilder<?> b = s.engine().newRequestBuilder(2, 3 + attributes.size());
        put(b, ACTION_ID, XacmlTranslator.ACTION_CONFIG);
        put(b, ONAP_NAME, onapName);
        put(b, CONFIG_NAME, configName);
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            put(b, fqn(XacmlTranslator.RESOURCE, XacmlTranslator.CONFIG_MATCHING + e.getKey()), e.getValue());
        }
        DecisionResult result = s.engine().evaluate(b.build(true));
        List<String> ids = new ArrayList<>();
        if (result.getDecision() == DecisionType.PERMIT) {
            for (PrimaryPolicyMetadata m : result.getApplicablePolicies()) {
                if (!m.getId().equals(XacmlTranslator.ROOT_ID)) {
                    ids.add(m.getId());
                }
            }
        }
        return ids;
    }

    private static Decision decision(DecisionResult r) {
        return switch (r.getDecision()) {
            case PERMIT -> Decision.PERMIT;
            case DENY -> Decision.DENY;
            case NOT_APPLICABLE -> Decision.NOT_APPLICABLE;
            default -> Decision.INDETERMINATE;
        };
    }

    private Snapshot current() throws PdpException {
        Snapshot s = snapshot;
        if (!dirty && s != null) {
            return s;
        }
        synchronized (this) {
            if (dirty || snapshot == null) {
                rebuild();
            }
            return snapshot;
        }
    }

    /** Writes the root PolicySet and the engine configuration, then swaps in a new engine. */
    private void rebuild() throws PdpException {
        Collection<OnapPolicy> policies = deployed.values();
        Map<String, Long> windows = new LinkedHashMap<>();
        for (OnapPolicy p : policies) {
            if (p.kind() == OnapPolicy.Kind.GUARD) {
                windows.put(XacmlTranslator.windowIssuer(p),
                        XacmlTranslator.window(p) * unitSeconds(p.attr("timeUnits")));
            }
        }
        int gen = ++generation;
        long t0 = System.nanoTime();
        try {
            Path policyFile = dir.resolve("policies.xml");
            Path conf = dir.resolve("pdp.xml");
            write(policyFile, XacmlTranslator.rootPolicySet(policies));
            write(conf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<pdp xmlns=\"http://authzforce.github.io/core/xmlns/pdp/8\" "
                    + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"8.1\">\n"
                    + "  <policyProvider id=\"lab\" xsi:type=\"StaticPolicyProvider\">\n"
                    + "    <policyLocation>" + XacmlTranslator.xml(policyFile.toUri().toString())
                    + "</policyLocation>\n"
                    + "  </policyProvider>\n"
                    + "  <rootPolicyRef policySet=\"true\">" + XacmlTranslator.ROOT_ID + "</rootPolicyRef>\n"
                    + "</pdp>\n");
            BasePdpEngine engine = new BasePdpEngine(PdpEngineConfiguration.getInstance(conf.toUri().toString()));
            // the old engine is left to the GC, not closed: decisions may still be running on it
            snapshot = new Snapshot(engine, windows, gen);
            dirty = false;
            System.err.printf(java.util.Locale.ROOT, "trustload-lab: pdp engine %d built with %d policies in %d ms%n",
                    gen, policies.size(), (System.nanoTime() - t0) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            throw new PdpException(500, "policyEngineError",
                    "AuthzForce refused the policy set (generation " + gen + "): " + e);
        }
    }

    private static void write(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static long unitSeconds(String raw) throws PdpException {
        return switch (OnapPolicy.timeUnit(raw)) {
            case "minute" -> 60L;
            case "hour" -> 3600L;
            case "day" -> 86_400L;
            case "week" -> 7 * 86_400L;
            case "month" -> 30 * 86_400L;
            default -> 365 * 86_400L;
        };
    }

    private static long count(ConcurrentLinkedDeque<Long> ops, long since) {
        if (ops == null) {
            return 0;
        }
        long n = 0;
        for (Long t : ops) {
            if (t >= since) {
                n++;
            }
        }
        return n;
    }

    private static String key(String actor, String recipe, String target) {
        return actor + '\u0000' + recipe + '\u0000' + target;
    }

    private static void put(DecisionRequestBuilder<?> b, AttributeFqn name, String value) {
        if (value != null) {
            b.putNamedAttributeIfAbsent(name,
                    Bags.singletonAttributeBag(StandardDatatypes.STRING, new StringValue(value)));
        }
    }

    private static AttributeFqn fqn(String category, String id) {
        return AttributeFqns.newInstance(category, Optional.empty(), id);
    }

    @Override
    public synchronized void close() {
        Snapshot s = snapshot;
        snapshot = null;
        if (s != null) {
            try {
                s.engine().close();
            } catch (IOException e) {
                System.err.println("trustload-lab: pdp engine close: " + e);
            }
        }
    }
}
