# TrustLoad: JVM options for JMeter, read by bin/jmeter (and by the official JMeter start script,
# which sources bin/setenv.sh too). For your own JMeter 5.6.3 home, append this file to its
# bin/setenv.sh (the drop-in ships it as bin/trustload-setenv.sh; the plugins manager's
# trustload-setup appends it for you): see docs/install.md.
#
# The GM-SSL engine "bgm" (openEuler bgmprovider 1.1.4) reaches into JDK internals on Java 17; without
# these options a TLCP Client Config using bgm stops the test at its start with a configuration error
# naming the missing ones. They only open JDK packages to unnamed modules and do not change JMeter's default TLS.
# This line is the one definition: ./trustload and the plan tests read it from here.
TRUSTLOAD_BGM_JVM_ARGS="--add-exports=java.base/jdk.internal.access=ALL-UNNAMED --add-exports=java.base/sun.security.action=ALL-UNNAMED --add-exports=java.base/sun.security.pkcs=ALL-UNNAMED --add-exports=java.base/sun.security.provider.certpath=ALL-UNNAMED --add-opens=java.base/sun.security.x509=ALL-UNNAMED --add-opens=java.base/sun.security.pkcs12=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.base/sun.security.jca=ALL-UNNAMED"
case " ${JVM_ARGS:-} " in
  *" --add-exports=java.base/jdk.internal.access=ALL-UNNAMED "*) ;;
  *) JVM_ARGS="${JVM_ARGS:+$JVM_ARGS }$TRUSTLOAD_BGM_JVM_ARGS" ;;
esac
export JVM_ARGS
