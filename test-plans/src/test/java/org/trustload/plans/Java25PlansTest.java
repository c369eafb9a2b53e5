package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Java 25 pass ({@link PlanRunJava25IT}) runs the plans {@value Plans#JAVA25_SET} lists, not
 * the whole library: they must together run every element class any plan runs (read from the plans' .jmx as JMeter
 * loads them) and hold every plan family, so that a new element or family cannot go untested on Java 25. When this
 * fails, add a plan it names to the list.
 */
class Java25PlansTest {

    @Test
    void theJava25PlansRunEveryElementClassAndEveryFamilyOfTheLibrary() throws Exception {
        List<String> chosen = Plans.planSet(Plans.DIR.resolve(Plans.JAVA25_SET));
        Map<String, Set<String>> features = new LinkedHashMap<>();
        for (Plans.Plan plan : Plans.all()) {
            Set<String> f = new TreeSet<>(Plans.elementClasses(plan.jmx()));
            f.add("family " + Plans.family(plan.id()));
            features.put(plan.id(), f);
        }
        assertThat(features.keySet()).as("plans of " + Plans.JAVA25_SET).containsAll(chosen);
        assertThat(chosen).as(Plans.JAVA25_SET + " lists each plan once").doesNotHaveDuplicates();
        // what no chosen plan runs, and the plans that would run it
        Map<String, Set<String>> missing = new TreeMap<>();
        features.forEach((id, f) -> f.forEach(feature -> {
            if (chosen.stream().noneMatch(c -> features.get(c).contains(feature))) {
                missing.computeIfAbsent(feature, k -> new TreeSet<>()).add(id);
            }
        }));
        List<String> fewest = Plans.cover(List.copyOf(features.keySet()), features::get);
        assertThat(missing).as("element classes and families that no plan of " + Plans.JAVA25_SET
                + " runs (and the plans that do): add one of those plans; the fewest plans covering the library are "
                + fewest).isEmpty();
    }
}
