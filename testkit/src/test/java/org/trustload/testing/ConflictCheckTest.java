package org.trustload.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConflictCheckTest {

    @TempDir
    Path tmp;

    private Path home;
    private Path dropin;

    private static void jar(Path file, String... entries) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (String e : entries) {
                String[] nameAndBody = e.split("=", 2);
                zip.putNextEntry(new ZipEntry(nameAndBody[0]));
                zip.write((nameAndBody.length > 1 ? nameAndBody[1] : "x").getBytes());
                zip.closeEntry();
            }
        }
    }

    private void pristineHomeAndCleanDropin() throws IOException {
        home = tmp.resolve("home");
        dropin = tmp.resolve("dropin");
        jar(home.resolve("lib/ext/ApacheJMeter_core.jar"), "org/apache/jmeter/Core.class",
                "META-INF/MANIFEST.MF", "module-info.class");
        jar(home.resolve("lib/slf4j-api-1.7.36.jar"), "org/slf4j/Logger.class",
                "META-INF/maven/org.slf4j/slf4j-api/pom.properties=groupId=org.slf4j\n"
                + "artifactId=slf4j-api\nversion=1.7.36\n");
        jar(dropin.resolve("lib/ext/trustload-samplers-0.1.0.jar"), "org/trustload/jmeter/ldap/S.class",
                "META-INF/MANIFEST.MF", "module-info.class", "META-INF/versions/11/module-info.class");
        jar(dropin.resolve("lib/unboundid-ldapsdk-7.0.3.jar"), "com/unboundid/ldap/sdk/LDAPConnection.class",
                "META-INF/LICENSE", "LICENSE.txt");
        jar(home.resolve("lib/hamcrest-core-1.3.jar"), "org/hamcrest/Matcher.class", "LICENSE.txt");
    }

    @Test
    void cleanDropinPassesAndMetadataIsIgnored() throws IOException {
        pristineHomeAndCleanDropin();
        ConflictCheck.Result r = ConflictCheck.check(home, dropin, null);
        assertThat(r.problems()).isEmpty();
        assertThat(r.ourJars()).hasSize(2);
    }

    @Test
    void dropinAlreadyCopiedIntoTheHomeCountsAsOurs() throws IOException {
        pristineHomeAndCleanDropin();
        jar(home.resolve("lib/unboundid-ldapsdk-7.0.3.jar"), "com/unboundid/ldap/sdk/LDAPConnection.class");
        assertThat(ConflictCheck.check(home, dropin, null).problems()).isEmpty();
    }

    @Test
    void fakeDuplicateClassIsReported() throws IOException {
        pristineHomeAndCleanDropin();
        jar(dropin.resolve("lib/repackaged-1.0.jar"), "org/apache/jmeter/Core.class", "org/own/Other.class");
        assertThat(ConflictCheck.check(home, dropin, null).problems())
                .singleElement().asString()
                .contains("lib/repackaged-1.0.jar", "org/apache/jmeter/Core.class", "lib/ext/ApacheJMeter_core.jar");
    }

    @Test
    void sameArtifactInAnotherVersionIsReported() throws IOException {
        pristineHomeAndCleanDropin();
        jar(dropin.resolve("lib/slf4j-api-2.0.9.jar"), "org/slf4j/LoggerV2.class",
                "META-INF/maven/org.slf4j/slf4j-api/pom.properties=groupId=org.slf4j\n"
                + "artifactId=slf4j-api\nversion=2.0.9\n");
        assertThat(ConflictCheck.check(home, dropin, null).problems())
                .anySatisfy(p -> assertThat(p).contains("org.slf4j:slf4j-api", "lib/slf4j-api-1.7.36.jar"));
    }

    @Test
    void aMixedHomeWithTwoBouncyCastlesIsReportedAndACleanOneIsNot() throws IOException {
        pristineHomeAndCleanDropin();
        Path mixed = tmp.resolve("plugin-home");
        jar(mixed.resolve("lib/bcprov-jdk18on-1.87.jar"), "org/bouncycastle/jce/provider/BouncyCastleProvider.class",
                "org/bouncycastle/crypto/Digest.class", "META-INF/MANIFEST.MF", "LICENSE.html");
        jar(mixed.resolve("lib/slf4j-api-1.7.36.jar"), "org/slf4j/Logger.class",
                "META-INF/MANIFEST.MF", "LICENSE.html");
        jar(mixed.resolve("lib/annotations-23.0.0.jar"), "org/jetbrains/annotations/NotNull.class", "data/list.txt");
        jar(mixed.resolve("lib/annotations-2.58.0.jar"),
                "software/amazon/awssdk/annotations/SdkPublicApi.class", "data/list.txt");
        assertThat(ConflictCheck.duplicates(mixed)).as("same file name, same resource: not a class clash").isEmpty();
        jar(mixed.resolve("lib/bcprov-jdk15on-1.70.jar"), "org/bouncycastle/jce/provider/BouncyCastleProvider.class",
                "org/bouncycastle/crypto/Digest.class", "META-INF/MANIFEST.MF");
        assertThat(ConflictCheck.duplicates(mixed)).singleElement().asString()
                .contains("lib/bcprov-jdk15on-1.70.jar", "lib/bcprov-jdk18on-1.87.jar", "2 class(es)",
                        "org/bouncycastle/jce/provider/BouncyCastleProvider.class");
    }

    @Test
    void versionMediatedAwayInTheMavenGraphIsReported() {
        List<String> tree = List.of(
                "org.trustload:trustload-dist:pom:0.1.0",
                "+- org.apache.jmeter:ApacheJMeter_core:jar:5.6.3:compile",
                "|  +- org.slf4j:slf4j-api:jar:1.7.36:compile",
                "|  \\- (commons-codec:commons-codec:jar:1.15:runtime - omitted for conflict with 1.16.0)",
                "+- org.apache.jmeter:ApacheJMeter_http:jar:5.6.3:compile",
                "|  \\- commons-codec:commons-codec:jar:1.16.0:compile",
                "+- org.trustload:trustload-samplers:jar:0.1.0:provided",
                "|  \\- org.trustload:trustload-lib:jar:0.1.0:provided",
                "|     +- (org.slf4j:slf4j-api:jar:2.0.9:provided - omitted for conflict with 1.7.36)",
                "|     +- (commons-codec:commons-codec:jar:1.16.0:provided - omitted for duplicate)",
                "|     \\- com.unboundid:unboundid-ldapsdk:jar:7.0.3:provided",
                "\\- org.junit.jupiter:junit-jupiter:jar:5.10.2:test");
        assertThat(ConflictCheck.versionConflicts(tree))
                .singleElement().asString()
                .contains("org.slf4j:slf4j-api", "[2.0.9]", "1.7.36");
    }

    @Test
    void ourNearerVersionOverridingJMetersIsReported() {
        List<String> tree = List.of(
                "org.trustload:trustload-dist:pom:0.1.0",
                "+- org.apache.jmeter:ApacheJMeter_core:jar:5.6.3:compile",
                "|  \\- org.apache.jmeter:jorphan:jar:5.6.3:compile",
                "|     \\- (org.slf4j:slf4j-api:jar:1.7.36:compile - omitted for conflict with 2.0.9)",
                "\\- org.trustload:trustload-samplers:jar:0.1.0:provided",
                "   \\- org.slf4j:slf4j-api:jar:2.0.9:compile");
        assertThat(ConflictCheck.versionConflicts(tree)).singleElement().asString().contains("slf4j-api");
    }
}
